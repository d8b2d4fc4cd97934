import { TriangleAlert } from "lucide-react";
import { Link, useRouteError } from "react-router";
import { buttonClass } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { EmptyState } from "../components/ui/empty-state.tsx";
import { Header } from "./header.tsx";

/** Shown when a screen throws or its code cannot be downloaded (e.g. after a new version was deployed). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <Card>
          <EmptyState
            icon={TriangleAlert}
            title="Something went wrong"
            description="This page could not be shown. Reloading usually helps."
            action={
              <div className="flex gap-3">
                <button
                  type="button"
                  className={buttonClass("primary")}
                  onClick={() => window.location.reload()}
                >
                  Reload
                </button>
                <Link to="/" className={buttonClass("secondary")}>
                  Go home
                </Link>
              </div>
            }
          />
        </Card>
      </main>
    </div>
  );
}
