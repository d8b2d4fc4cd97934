import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Bell, LifeBuoy, Menu, X } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { cn } from "#client/components/ui/cn.ts";
import { VisitorThemeToggle } from "#client/features/theme/visitor-theme-toggle.tsx";
import { Link, NavLink } from "#client/lib/router/links.tsx";
import { useNavigate } from "#client/lib/router/router.tsx";
import { useActorQuery } from "#client/lib/use-actor.ts";
import { homePathFor } from "#shared/users/roles.ts";

// The signed-in tools are their own chunks: /sign-in's first download does not carry them (decision 031).
const NotificationBell = lazy(() =>
  import("#client/features/notifications/components/notification-bell.tsx").then((module) => ({
    default: module.NotificationBell,
  })),
);
const CommandLauncher = lazy(() =>
  import("./command-launcher.tsx").then((module) => ({ default: module.CommandLauncher })),
);
const ThemeToggle = lazy(() =>
  import("#client/features/theme/theme-toggle.tsx").then((module) => ({ default: module.ThemeToggle })),
);

interface NavEntry {
  label: string;
  to: string;
}

/** The header's entries: signed-out visitors are sent to /sign-in by every entry but the last. */
function entriesFor(homePath: string | null): NavEntry[] {
  const orSignIn = (to: string) => (homePath ? to : "/sign-in");
  return [
    { label: t`Dashboard`, to: homePath ?? "/sign-in" },
    { label: t`Tickets`, to: orSignIn("/tickets") },
    { label: t`Knowledge Base`, to: orSignIn("/Knowledge-base") },
    { label: t`Notifications`, to: orSignIn("/notifications") },
  ];
}

export function Header() {
  const { data, isPending } = useActorQuery();
  // Held until they set up two-factor sign-in (decision 046): a bare header, as nothing else would answer them.
  const isHeld = data?.mustSetUpTwoFactor === true;
  const actor = isHeld ? null : data;
  const navigate = useNavigate();
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  // Whatever opens another page also closes the mobile menu, so it never stays open over the new page.
  const closeMenu = () => setIsMenuOpen(false);

  const homePath = actor ? homePathFor(actor.role) : null;
  const entries = entriesFor(homePath);
  const lastEntry: NavEntry | null =
    isPending || isHeld
      ? null
      : actor
        ? { label: t`Profile`, to: "/profile" }
        : { label: t`Sign In`, to: "/sign-in" };

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link
          to={homePath ?? "/sign-in"}
          onClick={closeMenu}
          className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <span className="flex size-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <LifeBuoy aria-hidden="true" className="size-5" />
          </span>
          <Trans>Helpdesk</Trans>
        </Link>

        <nav aria-label={t`Main`} className="ml-6 hidden items-center gap-1 md:flex">
          {entries.map((entry) => (
            <HeaderLink key={entry.label} entry={entry} />
          ))}
        </nav>

        <div className="ml-auto flex items-center gap-2">
          {actor?.role ? (
            <Suspense fallback={null}>
              <CommandLauncher />
            </Suspense>
          ) : null}
          {actor ? (
            <Suspense fallback={<span className="size-10" />}>
              <ThemeToggle />
            </Suspense>
          ) : (
            <VisitorThemeToggle />
          )}
          {actor ? (
            <Suspense fallback={<span className="size-10" />}>
              <NotificationBell userId={actor.id} onOpen={closeMenu} />
            </Suspense>
          ) : (
            <button
              type="button"
              aria-label={t`Open notifications`}
              onClick={() => {
                closeMenu();
                navigate("/sign-in");
              }}
              className="relative flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <Bell aria-hidden="true" className="size-5" />
            </button>
          )}
          {lastEntry ? (
            <Link
              to={lastEntry.to}
              className={cn(
                "hidden h-9 items-center rounded-lg px-3.5 text-sm font-medium md:inline-flex",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
                actor
                  ? "text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
                  : "bg-indigo-600 text-white shadow-sm hover:bg-indigo-500",
              )}
            >
              {lastEntry.label}
              {/* Decision 073: a technician marked away sees it wherever they are, and where to undo it. */}
              {actor?.awaySince ? " " : null}
              {actor?.awaySince ? (
                <span className="ms-1.5 rounded-full bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800">
                  <Trans>Away</Trans>
                </span>
              ) : null}
            </Link>
          ) : (
            <span aria-hidden="true" className="hidden w-20 md:block" />
          )}
          <button
            type="button"
            aria-label={t`Toggle menu`}
            aria-expanded={isMenuOpen}
            aria-controls="mobile-menu"
            onClick={() => setIsMenuOpen((open) => !open)}
            className="flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden"
          >
            {isMenuOpen ? (
              <X aria-hidden="true" className="size-5" />
            ) : (
              <Menu aria-hidden="true" className="size-5" />
            )}
          </button>
        </div>
      </div>

      {isMenuOpen ? (
        <nav
          id="mobile-menu"
          aria-label={t`Mobile`}
          className="border-t border-slate-200 px-4 py-3 md:hidden"
        >
          <div className="flex flex-col gap-1">
            {[...entries, ...(lastEntry ? [lastEntry] : [])].map((entry) => (
              <HeaderLink key={entry.label} entry={entry} isBlock onClick={closeMenu} />
            ))}
          </div>
        </nav>
      ) : null}
    </header>
  );
}

interface HeaderLinkProps {
  entry: NavEntry;
  isBlock?: boolean;
  onClick?: () => void;
}

function HeaderLink({ entry, isBlock = false, onClick }: HeaderLinkProps) {
  return (
    <NavLink
      to={entry.to}
      onClick={onClick}
      className={({ isActive }) =>
        cn(
          "rounded-lg px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600",
          isBlock && "block",
          isActive && entry.to !== "/sign-in"
            ? "bg-indigo-50 text-indigo-700"
            : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
        )
      }
    >
      {entry.label}
    </NavLink>
  );
}
