import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Bell, BellRing } from "lucide-react";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { cn } from "#client/components/ui/cn.ts";
import { notificationCountsQuery } from "#client/features/notifications/notification.api.ts";
import {
  canShowDesktopNotifications,
  enableDesktopNotifications,
  isDesktopNotificationsOn,
} from "#client/features/notifications/notification-preferences.ts";
import { Link } from "#client/lib/router/links.tsx";

// The dropdown's list loads when the bell is opened, not with every signed-in page (decision 031).
const NotificationList = lazy(() =>
  import("./notification-list.tsx").then((module) => ({ default: module.NotificationList })),
);

const badgeText = (unread: number) => (unread > 99 ? "99+" : String(unread));

/** The header's bell: unread badge, and a dropdown of the latest notifications. */
export function NotificationBell({ userId, onOpen }: { userId: string; onOpen?: () => void }) {
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const headingId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const { data: counts } = useQuery(notificationCountsQuery());
  const unread = counts?.unread ?? 0;

  const close = () => setIsOpen(false);

  useEffect(() => {
    if (!isOpen) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setIsOpen(false);
        buttonRef.current?.focus();
      }
    };
    const handlePointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener("keydown", handleKeyDown);
    document.addEventListener("pointerdown", handlePointerDown);
    return () => {
      document.removeEventListener("keydown", handleKeyDown);
      document.removeEventListener("pointerdown", handlePointerDown);
    };
  }, [isOpen]);

  return (
    <div ref={rootRef} className="sm:relative">
      {/* The badge sits beside the button, not in it: axe reads a number inside a button named by aria-label
          as visible text its name must hold word for word (label in name, WCAG 2.5.3). The name says it. */}
      <span className="relative inline-flex">
        <button
          ref={buttonRef}
          type="button"
          aria-label={unread > 0 ? t`Open notifications (${unread} unread)` : t`Open notifications`}
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={() => {
            onOpen?.();
            setIsOpen((open) => !open);
          }}
          className="relative flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <Bell aria-hidden="true" className="size-5" />
        </button>
        {unread > 0 ? (
          <span
            aria-hidden="true"
            data-testid="notification-badge"
            className="pointer-events-none absolute top-1 right-1 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-none font-semibold text-white ring-2 ring-white"
          >
            {badgeText(unread)}
          </span>
        ) : null}
      </span>

      {isOpen ? (
        <section
          id={panelId}
          aria-labelledby={headingId}
          className={cn(
            "absolute inset-x-2 top-full z-50 mt-1 flex max-h-[min(32rem,calc(100dvh-5rem))] flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg",
            "sm:inset-x-auto sm:right-0 sm:w-96",
          )}
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
            <h2 id={headingId} className="text-sm font-semibold text-slate-900">
              <Trans>Notifications</Trans>
            </h2>
            {unread > 0 ? (
              <span className="text-xs text-slate-500">
                <Trans>{unread} unread</Trans>
              </span>
            ) : null}
          </div>
          <DesktopOptIn userId={userId} />
          <div className="min-h-0 flex-1 overflow-y-auto">
            <Suspense
              fallback={
                // What the list itself says while its answer is on the way.
                <p role="status" className="px-4 py-8 text-center text-sm text-slate-500">
                  <Trans>Loading notifications...</Trans>
                </p>
              }
            >
              <NotificationList filter="all" variant="compact" onOpen={close} />
            </Suspense>
          </div>
          <Link
            to="/notifications"
            onClick={close}
            className="block border-t border-slate-100 px-4 py-3 text-center text-sm font-medium text-indigo-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
          >
            <Trans>View all notifications</Trans>
          </Link>
        </section>
      ) : null}
    </div>
  );
}

/** Desktop notifications are opt-in: the browser asks only after this click. */
function DesktopOptIn({ userId }: { userId: string }) {
  const [isOn, setIsOn] = useState(() => isDesktopNotificationsOn(userId));
  const [isDenied, setIsDenied] = useState(
    () => canShowDesktopNotifications() && Notification.permission === "denied",
  );
  if (!canShowDesktopNotifications() || isOn) return null;
  if (isDenied) {
    return (
      <p className="border-b border-slate-100 px-4 py-2 text-xs text-slate-500">
        <Trans>Desktop notifications are blocked in this browser's site settings.</Trans>
      </p>
    );
  }
  return (
    <div className="border-b border-slate-100 px-4 py-2">
      <button
        type="button"
        onClick={async () => {
          const permission = await enableDesktopNotifications(userId);
          setIsOn(permission === "granted");
          setIsDenied(permission === "denied");
        }}
        className="inline-flex items-center gap-1.5 rounded-md text-xs font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <BellRing aria-hidden="true" className="size-3.5" />
        <Trans>Enable desktop notifications</Trans>
      </button>
    </div>
  );
}
