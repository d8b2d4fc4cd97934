import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Monitor, Moon, Sun } from "lucide-react";
import { cn } from "#client/components/ui/cn.ts";
import { toast } from "#client/lib/toast.ts";
import type { Theme } from "#shared/users/user.schemas.ts";
import { useSetTheme } from "./theme.ts";

const choices = [
  { value: "system", label: msg`System`, Icon: Monitor },
  { value: "light", label: msg`Light`, Icon: Sun },
  { value: "dark", label: msg`Dark`, Icon: Moon },
] as const satisfies readonly { value: Theme; label: MessageDescriptor; Icon: unknown }[];

/** /profile: light, dark, or the device's setting; kept on the person, so it follows them to other browsers. */
export function ThemeChoice({ theme }: { theme: Theme }) {
  const { i18n } = useLingui();
  const setTheme = useSetTheme();
  const current = setTheme.isPending && setTheme.variables ? setTheme.variables : theme;
  return (
    <fieldset>
      <legend className="sr-only">
        <Trans>Theme</Trans>
      </legend>
      <div className="flex w-fit max-w-full flex-wrap rounded-md border border-slate-300 p-0.5">
        {choices.map(({ value, label, Icon }) => (
          <label
            key={value}
            className={cn(
              "flex cursor-pointer items-center gap-1.5 rounded px-2.5 py-1.5 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600",
              current === value ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100",
            )}
          >
            <input
              type="radio"
              name="theme"
              value={value}
              checked={current === value}
              onChange={() => setTheme.mutate(value, { onError: (error) => toast.error(error.message) })}
              className="sr-only"
            />
            <Icon aria-hidden="true" className="hidden size-4 sm:block" />
            {i18n._(label)}
          </label>
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-500">
        <Trans>System follows your device's light or dark setting.</Trans>
      </p>
    </fieldset>
  );
}
