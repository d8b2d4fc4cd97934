import { MapPinOff } from "lucide-react";
import { Link } from "react-router";
import { buttonClass } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { EmptyState } from "../components/ui/empty-state.tsx";

/** Any path the app does not know. */
export default function NotFoundPage() {
  return (
    <Card>
      <title>Page not found · Helpdesk</title>
      <EmptyState
        icon={MapPinOff}
        titleAs="h1"
        title="Page not found"
        description="The address may be mistyped, or the page may have moved."
        action={
          <Link to="/" className={buttonClass("primary")}>
            Go to the home page
          </Link>
        }
      />
    </Card>
  );
}
