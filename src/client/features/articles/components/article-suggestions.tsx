import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { BookOpen } from "lucide-react";
import { type RefObject, useEffect, useRef } from "react";
import {
  articleSuggestionsQuery,
  recordSuggestionOpened,
  reportFormLeft,
} from "#client/features/articles/articles.api.ts";
import { i18n } from "#client/lib/i18n.ts";
import { useNavigate } from "#client/lib/router/router.tsx";
import { categoryLabels } from "#client/lib/ticket-value-labels.ts";
import { useDebouncedValue } from "#client/lib/use-debounced-value.ts";
import { articlePath } from "#shared/articles/article-slug.ts";

interface ArticleSuggestionsProps {
  title: string;
  /** How many tickets the form has created so far: a visit that ended in a ticket is no deflection. */
  ticketsCreated: RefObject<number>;
}

/**
 * Up to three published articles matching a new ticket's title as it is typed. Opening
 * one, then leaving the form without creating a ticket, counts a deflection (docs/decisions/030).
 */
export function ArticleSuggestions({ title, ticketsCreated }: ArticleSuggestionsProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const q = useDebouncedValue(title.trim(), 300);
  const suggestions = useQuery(articleSuggestionsQuery(q));
  const visit = useRef({
    id: crypto.randomUUID(),
    createdAtStart: ticketsCreated.current,
    opened: false,
    reported: false,
  });

  useEffect(() => {
    const report = () => {
      const current = visit.current;
      if (current.opened && !current.reported && ticketsCreated.current === current.createdAtStart) {
        current.reported = true;
        void reportFormLeft(current.id);
      }
    };
    // Closing the tab does not unmount anything: pagehide reports it instead.
    window.addEventListener("pagehide", report);
    return () => {
      window.removeEventListener("pagehide", report);
      report();
    };
  }, [ticketsCreated]);

  const items = q.length >= 3 ? (suggestions.data?.items ?? []) : [];
  if (items.length === 0) return null;

  const handleOpen = async (id: number, slug: string) => {
    // A ticket created since this visit began ends it: what is opened now belongs to a new visit.
    if (ticketsCreated.current !== visit.current.createdAtStart) {
      visit.current = {
        id: crypto.randomUUID(),
        createdAtStart: ticketsCreated.current,
        opened: false,
        reported: false,
      };
    }
    visit.current.opened = true;
    // Recorded before the page changes, so the deflection reported on leaving finds it.
    await recordSuggestionOpened(id, visit.current.id).catch(() => undefined);
    navigate(articlePath(slug));
  };

  return (
    <section
      aria-label={t`Suggested articles`}
      className="rounded-lg border border-indigo-100 bg-indigo-50/60 p-3 sm:col-span-6"
    >
      <p className="flex items-center gap-2 text-sm font-medium text-indigo-900">
        <BookOpen aria-hidden="true" className="size-4" /> <Trans>These articles might solve it</Trans>
      </p>
      <ul className="mt-2 space-y-1">
        {items.map((item) => (
          <li key={item.id}>
            <a
              href={articlePath(item.slug)}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                void handleOpen(item.id, item.slug);
              }}
              className="text-sm text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
            >
              {item.title}
            </a>
            <span className="ml-2 text-xs text-slate-500">{i18n._(categoryLabels[item.category])}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
