import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { TriangleAlert } from "lucide-react";
import { Component, type ReactNode } from "react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { EarlyClickReplay } from "#client/lib/early-click.ts";
import { Link } from "#client/lib/router/links.tsx";
import { Header } from "./header.tsx";

interface BoundaryProps {
  /** The page's path: a failure is forgotten when it changes (the person went elsewhere). */
  resetKey: string;
  children: ReactNode;
}

/** Catches what a screen throws while rendering (see AppRoutes) and shows RouteError instead. */
export class RouteErrorBoundary extends Component<BoundaryProps, { failedAt: string | null }> {
  override state: { failedAt: string | null } = { failedAt: null };

  static getDerivedStateFromError() {
    return { failedAt: "" };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { failedAt: string | null }) {
    if (state.failedAt === "") return { failedAt: props.resetKey };
    if (state.failedAt !== null && state.failedAt !== props.resetKey) return { failedAt: null };
    return null;
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failedAt === null ? this.props.children : <RouteError />;
  }
}

/** Shown when a screen throws or its code cannot be downloaded (e.g. after a new version was deployed). */
export function RouteError() {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      {/* The page will not come: the app has what is on screen, and a press held meanwhile is done now. */}
      <EarlyClickReplay />
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <Card>
          <EmptyState
            icon={TriangleAlert}
            title={t`Something went wrong`}
            description={t`This page could not be shown. Reloading usually helps.`}
            action={
              <div className="flex gap-3">
                <button
                  type="button"
                  className={buttonClass("primary")}
                  onClick={() => window.location.reload()}
                >
                  <Trans>Reload</Trans>
                </button>
                <Link to="/" className={buttonClass("secondary")}>
                  <Trans>Go home</Trans>
                </Link>
              </div>
            }
          />
        </Card>
      </main>
    </div>
  );
}
