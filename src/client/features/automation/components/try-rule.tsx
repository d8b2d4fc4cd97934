import { plural, t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { FlaskConical } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";
import { useTryAutomationRule } from "#client/features/automation/automation.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { Link } from "#client/lib/router/links.tsx";
import { ruleTrySampleSize } from "#shared/automation/automation-rule.schemas.ts";
import type { RuleTrigger } from "#shared/automation/rule-conditions.ts";

/** The server's refusal in words: a condition named by its place in the form ("Condition 2: …"). */
function tryErrorText(error: Error): string {
  if (!isApiError(error) || error.issues.length === 0) return error.message;
  return error.issues
    .map(({ path: [head, index], message }) => {
      if (head !== "conditions" || index === undefined || !/^\d+$/.test(index)) return message;
      const number = Number(index) + 1;
      return tc`Condition ${number}: ${message}`;
    })
    .join(" ");
}

/**
 * "Try" (decision 076): the trigger and the conditions as the form has them now, against the open tickets;
 * how many the rule would act on, and the newest of them as links. Who changed a ticket is unknown while
 * trying, so the server takes that condition as holding.
 */
export function TryRule({ input }: { input: () => { trigger: RuleTrigger; conditions: unknown[] } }) {
  const { t } = useLingui();
  const attempt = useTryAutomationRule();
  const result = attempt.data;
  const matched = result?.matched ?? 0;
  const checked = result?.checked ?? 0;

  return (
    <section
      aria-labelledby="try-rule-heading"
      className="flex flex-col gap-3 rounded-lg border border-dashed border-slate-300 p-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h3 id="try-rule-heading" className="text-sm font-semibold text-slate-900">
            <Trans>Try the conditions</Trans>
          </h3>
          <p className="text-xs text-slate-500">
            <Trans>See which open tickets the rule would act on now. Nothing is changed.</Trans>
          </p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          disabled={attempt.isPending}
          onClick={() => attempt.mutate(input())}
        >
          <FlaskConical aria-hidden="true" className="size-4" />
          <Trans>Try</Trans>
        </Button>
      </div>
      <div aria-live="polite" className="text-sm">
        {attempt.isError ? (
          <p className="text-red-600">{tryErrorText(attempt.error)}</p>
        ) : result ? (
          <>
            <p className="font-medium text-slate-900">
              {plural(checked, {
                one: `Would match ${matched} of # open ticket`,
                other: `Would match ${matched} of # open tickets`,
              })}
            </p>
            {result.tickets.length > 0 ? (
              <>
                <ul className="mt-2 flex flex-col gap-1" aria-label={t`Tickets it would match`}>
                  {result.tickets.map((ticket) => (
                    <li key={ticket.id} className="min-w-0 break-words">
                      <span className="font-mono text-xs text-slate-500">{ticket.id}</span>{" "}
                      <Link
                        to={`/tickets/${ticket.id}`}
                        className="font-medium text-indigo-600 hover:text-indigo-500"
                      >
                        {ticket.title}
                      </Link>
                    </li>
                  ))}
                </ul>
                {result.matched > result.tickets.length ? (
                  <p className="mt-1 text-xs text-slate-500">
                    <Trans>The newest {ruleTrySampleSize} are listed.</Trans>
                  </p>
                ) : null}
              </>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
