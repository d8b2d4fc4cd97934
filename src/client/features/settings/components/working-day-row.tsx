import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Plus, Trash2 } from "lucide-react";
import { useId } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Input } from "#client/components/ui/field.tsx";
import { errorsWithin, type FieldErrors } from "#client/features/settings/field-errors.ts";
import { type Weekday, workingIntervalsPerDayMax } from "#shared/service-levels/business-calendar.schemas.ts";

/** The weekdays in the active language; the settings keep the English names. */
export const weekdayLabels: Record<Weekday, MessageDescriptor> = {
  Monday: msg`Monday`,
  Tuesday: msg`Tuesday`,
  Wednesday: msg`Wednesday`,
  Thursday: msg`Thursday`,
  Friday: msg`Friday`,
  Saturday: msg`Saturday`,
  Sunday: msg`Sunday`,
};

/** One working interval of a day; the key stays put while others are added or removed (focus stays). */
export interface IntervalRow {
  key: number;
  open: string;
  close: string;
}

/** A new interval starts where the day's last one ends (office hours on a closed day). */
export function nextInterval(rows: readonly IntervalRow[]) {
  const last = rows.at(-1);
  if (!last) return { open: "09:00", close: "17:00" };
  const hour = Math.min(Number(last.close.slice(0, 2)) || 0, 23);
  const pad = (value: number) => String(value).padStart(2, "0");
  return { open: `${pad(hour)}:00`, close: hour + 1 >= 24 ? "24:00" : `${pad(hour + 1)}:00` };
}

interface WorkingDayRowProps {
  day: Weekday;
  rows: IntervalRow[];
  errors: FieldErrors;
  onChange: (update: (rows: IntervalRow[]) => IntervalRow[]) => void;
  newRow: () => IntervalRow;
}

/** One weekday: its working intervals (open–close), "Closed" when it has none, add and remove. */
export function WorkingDayRow({ day, rows, errors, onChange, newRow }: WorkingDayRowProps) {
  const { t, i18n } = useLingui();
  const dayName = i18n._(weekdayLabels[day]);
  const id = useId();
  const dayErrors = errors[`workingHours.${day}`];
  return (
    <li className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-start">
      <p id={`${id}-day`} className="w-28 shrink-0 pt-2 text-sm font-medium text-slate-900">
        {dayName}
      </p>
      <div className="flex flex-1 flex-col gap-2">
        {rows.length === 0 ? (
          <p className="pt-2 text-sm text-slate-500">
            <Trans>Closed</Trans>
          </p>
        ) : null}
        {rows.map((row, index) => {
          const ordinal = rows.length > 1 ? ` (${index + 1})` : "";
          const messages = errorsWithin(errors, `workingHours.${day}.${index}`);
          const openId = `${id}-${row.key}-open`;
          const closeId = `${id}-${row.key}-close`;
          const messagesId = `${id}-${row.key}-errors`;
          const describedBy = messages.length > 0 ? messagesId : undefined;
          const update = (patch: Partial<IntervalRow>) =>
            onChange((current) =>
              current.map((other) => (other.key === row.key ? { ...other, ...patch } : other)),
            );
          return (
            <div key={row.key} className="flex flex-col gap-1">
              <div className="flex items-center gap-2">
                <label htmlFor={openId} className="sr-only">
                  {t`${dayName} opens${ordinal}`}
                </label>
                <Input
                  id={openId}
                  className="max-w-24"
                  value={row.open}
                  placeholder="09:00"
                  maxLength={5}
                  autoComplete="off"
                  invalid={errors[`workingHours.${day}.${index}.open`] !== undefined}
                  aria-describedby={describedBy}
                  onChange={(event) => update({ open: event.target.value })}
                />
                <span aria-hidden="true" className="text-slate-500">
                  –
                </span>
                <label htmlFor={closeId} className="sr-only">
                  {t`${dayName} closes${ordinal}`}
                </label>
                <Input
                  id={closeId}
                  className="max-w-24"
                  value={row.close}
                  placeholder="17:00"
                  maxLength={5}
                  autoComplete="off"
                  invalid={errors[`workingHours.${day}.${index}.close`] !== undefined}
                  aria-describedby={describedBy}
                  onChange={(event) => update({ close: event.target.value })}
                />
                <Button
                  variant="ghost"
                  size="sm"
                  className="px-2 text-red-600 hover:text-red-700"
                  aria-label={t`Remove ${dayName} ${row.open}–${row.close}`}
                  onClick={() => onChange((current) => current.filter((other) => other.key !== row.key))}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </div>
              {messages.length > 0 ? (
                <div id={messagesId}>
                  {messages.map((message) => (
                    <p key={message} className="text-sm text-red-600">
                      {message}
                    </p>
                  ))}
                </div>
              ) : null}
            </div>
          );
        })}
        {dayErrors ? <p className="text-sm text-red-600">{dayErrors}</p> : null}
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="self-start sm:mt-1"
        aria-label={t`Add working hours on ${dayName}`}
        disabled={rows.length >= workingIntervalsPerDayMax}
        onClick={() => onChange((current) => [...current, newRow()])}
      >
        <Plus aria-hidden="true" className="size-4" />
        <Trans>Add hours</Trans>
      </Button>
    </li>
  );
}
