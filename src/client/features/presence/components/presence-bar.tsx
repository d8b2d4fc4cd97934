import { useLingui } from "@lingui/react/macro";
import { Eye, PencilLine } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn } from "#client/components/ui/cn.ts";
import { PersonAvatar } from "#client/components/ui/person-avatar.tsx";
import type { PresentPerson } from "#shared/presence/presence.schemas.ts";

/**
 * Who else is on the ticket (decision 072): one chip per person, "Ada is viewing" or "Ada is typing a
 * reply…", nothing when nobody else is. A polite live region says only who came and who started typing,
 * not every heartbeat, nor who left or stopped (the chips show that).
 */
export function PresenceBar({ people }: { people: readonly PresentPerson[] }) {
  const { t } = useLingui();
  const announcement = useArrivals(people);
  return (
    <>
      {people.length > 0 ? (
        <section
          aria-label={t`Also on this ticket`}
          className="flex max-w-full flex-wrap items-center gap-2 self-start rounded-xl border border-slate-200 bg-white px-2 py-2 shadow-sm"
        >
          <ul className="flex flex-wrap items-center gap-2">
            {people.map(({ userId, name, state }) => (
              <li
                key={userId}
                className={cn(
                  "flex min-w-0 max-w-full items-center gap-2 rounded-full py-0.5 pr-3 pl-0.5 text-sm",
                  state === "typing" ? "bg-amber-50 text-amber-900" : "bg-slate-100 text-slate-700",
                )}
              >
                <PersonAvatar name={name} className="size-6 text-[0.625rem]" />
                {state === "typing" ? (
                  <PencilLine aria-hidden="true" className="size-3.5 shrink-0 text-amber-700" />
                ) : (
                  <Eye aria-hidden="true" className="size-3.5 shrink-0 text-slate-500" />
                )}
                <span className="min-w-0 break-words">
                  {state === "typing" ? t`${name} is typing a reply…` : t`${name} is viewing`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </>
  );
}

/** What is worth saying aloud of a change: who came, who started typing. Empty for anything else. */
function useArrivals(people: readonly PresentPerson[]) {
  const { t } = useLingui();
  const previous = useRef<ReadonlyMap<string, PresentPerson["state"]>>(new Map());
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    const before = previous.current;
    previous.current = new Map(people.map((person) => [person.userId, person.state]));
    const news = people.flatMap(({ userId, name, state }) => {
      const was = before.get(userId);
      if (state === "typing" && was !== "typing") return [t`${name} is typing a reply`];
      if (was === undefined) return [t`${name} is viewing this ticket`];
      return [];
    });
    if (news.length > 0) setAnnouncement(news.join(". "));
  }, [people, t]);
  return announcement;
}
