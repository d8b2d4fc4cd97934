import { useLingui } from "@lingui/react/macro";
import { Button } from "./button.tsx";

/** The part of an infinite query (TanStack Query) that "Load more" needs. */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface LoadMoreProps {
  query: PagedQuery;
  /** Disabled and saying "Loading…" while the next page comes (the lists); the dialogs' stays as it is. */
  showsLoading?: boolean;
}

/** The button under a list that asks for its next page (nextCursor). */
export function LoadMoreButton({ query, showsLoading = true }: LoadMoreProps) {
  const { t } = useLingui();
  const isLoading = showsLoading && query.isFetchingNextPage;
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => void query.fetchNextPage()}
      disabled={showsLoading ? query.isFetchingNextPage : undefined}
    >
      {isLoading ? t`Loading…` : t`Load more`}
    </Button>
  );
}

/** A list's footer with "Load more", while there is a next page; `className` places it (a card's footer by default). */
export function LoadMore({
  className = "flex justify-center border-t border-slate-100 p-4",
  ...props
}: LoadMoreProps & { className?: string }) {
  if (!props.query.hasNextPage) return null;
  return (
    <div className={className}>
      <LoadMoreButton {...props} />
    </div>
  );
}
