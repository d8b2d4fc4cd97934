import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Info, LoaderCircle, UserRound, Wrench } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { useChooseRole } from "#client/features/auth/auth.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { useNavigate } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { actorKeys, forgetActor } from "#client/lib/use-actor.ts";
import { homePathFor, type SignUpRole } from "#shared/users/roles.ts";

const choices = [
  {
    role: "user",
    label: msg`User`,
    description: msg`Raise support tickets and follow them.`,
    icon: UserRound,
  },
  {
    role: "technician",
    label: msg`Technician`,
    description: msg`Pick up open tickets and resolve them.`,
    icon: Wrench,
  },
] as const satisfies readonly {
  role: SignUpRole;
  label: MessageDescriptor;
  description: MessageDescriptor;
  icon: unknown;
}[];

/** /role-selection: a person without a role (first Google or organisation sign-in) picks one, once. */
export function ChooseRoleForm() {
  const { t, i18n } = useLingui();
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const chooseRole = useChooseRole();
  // Posted before or without the code, the server chose through the same API and drew this page again
  // when it did not go through (decision 065): said here, where the app says it in a toast.
  const answer = useFormAnswer("role-selection");
  const [isAnswerShown, setIsAnswerShown] = useState(answer !== null);
  const chosenBefore = choices.find((choice) => choice.role === answer?.values.role)?.role ?? "user";

  async function handleContinue(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsAnswerShown(false);
    // The radios are the browser's own (a native post sends the one checked): read the choice from them.
    const chosen = new FormData(event.currentTarget).get("role");
    const role: SignUpRole = chosen === "technician" ? "technician" : "user";
    // mutateAsync, not mutate(…, callbacks): the new role sends this page home, and callbacks passed to
    // mutate are dropped once the form has unmounted.
    try {
      const actor = await chooseRole.mutateAsync(role);
      toast.success(t`Role selected successfully!`);
      navigate(homePathFor(actor.role), { replace: true });
    } catch (error) {
      if (isApiError(error, 401)) {
        toast.error(t`Please sign in first`);
        forgetActor(queryClient);
        navigate("/sign-in", { replace: true });
        return;
      }
      toast.error(t`Failed to update role. Please try again.`);
      // 409: a role was set meanwhile (another tab, an administrator); reloading who we are sends us home.
      if (isApiError(error, 409)) await queryClient.invalidateQueries({ queryKey: actorKeys.me });
    }
  }

  return (
    <form method="post" name="role-selection" onSubmit={handleContinue} className="flex flex-col gap-5">
      {isAnswerShown ? (
        <Alert>
          <Trans>Failed to update role. Please try again.</Trans>
        </Alert>
      ) : null}
      <div role="radiogroup" aria-labelledby={`${id}-legend`} className="flex flex-col gap-3">
        <p id={`${id}-legend`} className="text-sm font-medium text-slate-700">
          <Trans>Role</Trans>
        </p>
        {choices.map((choice) => {
          const Icon = choice.icon;
          // The choice is drawn from the radio's own state (:checked), so that it shows before and
          // without the code too.
          return (
            <label
              key={choice.role}
              htmlFor={`${id}-${choice.role}`}
              className={cn(
                "group flex cursor-pointer items-center gap-3 rounded-lg border p-4 transition-colors",
                "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600",
                "border-slate-300 hover:not-has-checked:bg-slate-50",
                "has-checked:border-indigo-500 has-checked:bg-indigo-50/60 has-checked:ring-1 has-checked:ring-indigo-500",
              )}
            >
              <input
                id={`${id}-${choice.role}`}
                type="radio"
                name="role"
                value={choice.role}
                defaultChecked={choice.role === chosenBefore}
                aria-labelledby={`${id}-${choice.role}-label`}
                aria-describedby={`${id}-${choice.role}-description`}
                className="size-4 accent-indigo-600"
              />
              <span
                className={cn(
                  "flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500",
                  "group-has-checked:bg-indigo-100 group-has-checked:text-indigo-700",
                )}
              >
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <span className="min-w-0">
                <span
                  id={`${id}-${choice.role}-label`}
                  className="block text-sm font-semibold text-slate-900"
                >
                  {i18n._(choice.label)}
                </span>
                <span id={`${id}-${choice.role}-description`} className="block text-sm text-slate-500">
                  {i18n._(choice.description)}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <p className="flex gap-2 text-sm text-slate-500">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <Trans>An administrator can change your role later.</Trans>
      </p>
      <Button type="submit" size="lg" className="w-full" disabled={chooseRole.isPending}>
        {chooseRole.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        <Trans>Continue</Trans>
      </Button>
    </form>
  );
}
