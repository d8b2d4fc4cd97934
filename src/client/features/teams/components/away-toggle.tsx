import { Trans, useLingui } from "@lingui/react/macro";
import { useSetAway } from "#client/features/teams/teams.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { toast } from "#client/lib/toast.ts";

/**
 * /profile, for technicians (decision 073): "Away" on while they are out, so that their teams' automatic
 * assignment passes them over; their own tickets and Assign to Me are unchanged. Saved at once.
 */
export function AwayToggle({ awaySince }: { awaySince: string | null }) {
  const { t } = useLingui();
  const setAway = useSetAway();
  const isAway =
    setAway.isPending && setAway.variables !== undefined ? setAway.variables : awaySince !== null;
  const since = awaySince ? formatDateTime(awaySince) : null;

  return (
    <div>
      <label className="flex w-fit cursor-pointer items-center gap-2 font-medium text-slate-900">
        <input
          type="checkbox"
          role="switch"
          aria-checked={isAway}
          className="size-4 rounded border-slate-300 accent-indigo-600"
          checked={isAway}
          disabled={setAway.isPending}
          onChange={(event) => {
            const away = event.target.checked;
            setAway.mutate(away, {
              onSuccess: () => toast.success(away ? t`You are marked away` : t`Welcome back`),
              onError: (error) => toast.error(error.message),
            });
          }}
        />
        <Trans>Away</Trans>
      </label>
      <p className="mt-1 text-xs text-slate-500">
        {isAway && since ? (
          <Trans>Away since {since}: your teams give you no new tickets until you are back.</Trans>
        ) : (
          <Trans>While away, your teams give you no new tickets. Your own tickets stay yours.</Trans>
        )}
      </p>
    </div>
  );
}
