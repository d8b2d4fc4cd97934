import { Badge } from "#client/components/ui/badge.tsx";

/** A ticket's tags as small badges (decision 071): staff's lists and ticket page. */
export function TagBadges({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {tags.map((tag) => (
        <Badge key={tag} tone="indigo">
          {tag}
        </Badge>
      ))}
    </span>
  );
}
