import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { memo, useCallback, useId, useMemo, useRef, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Field, Input } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  errorsWithin,
  type FieldErrors,
  fieldErrorsFromServer,
  fieldErrorsOf,
  noFieldErrors,
} from "#client/features/settings/field-errors.ts";
import { settingQuery, useSaveSetting } from "#client/features/settings/settings.api.ts";
import { toast } from "#client/lib/toast.ts";
import {
  type BusinessCalendar,
  businessCalendarSchema,
  holidayNameMaxLength,
  holidaysMax,
  type Weekday,
  weekdays,
} from "#shared/service-levels/business-calendar.schemas.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";
import { type IntervalRow, nextInterval, WorkingDayRow } from "./working-day-row.tsx";

/** Admin settings → Business hours: the one calendar service-level targets count in. */
export function BusinessHoursSettings() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<BusinessCalendar>("business-calendar"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading business hours`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed message={t`The business hours could not be loaded.`} onRetry={() => void query.refetch()} />
    );
  }
  // A new key after each save starts the form again from what the server stored.
  return <CalendarForm key={query.data.updatedAt ?? "default"} initial={query.data.value} />;
}

/** Rows carry a key that stays put while others are added or removed, so inputs keep their focus. */
interface HolidayRow {
  key: number;
  date: string;
  name: string;
}
interface CalendarDraft {
  timeZone: string;
  workingHours: Record<Weekday, IntervalRow[]>;
  holidays: HolidayRow[];
}

/** Every zone the browser knows, and the stored one even if this browser does not list it. */
function timeZoneOptions(current: string) {
  const zones = new Set(Intl.supportedValuesOf("timeZone"));
  zones.add("UTC");
  zones.add(current);
  return [...zones].sort().map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }));
}

function CalendarForm({ initial }: { initial: BusinessCalendar }) {
  const { t } = useLingui();
  const id = useId();
  const nextKey = useRef(0);
  const keyed = <T extends object>(value: T) => ({ ...value, key: nextKey.current++ });
  const [draft, setDraft] = useState<CalendarDraft>(() => ({
    timeZone: initial.timeZone,
    workingHours: Object.fromEntries(
      weekdays.map((day) => [day, initial.workingHours[day].map((interval) => keyed(interval))]),
    ) as Record<Weekday, IntervalRow[]>,
    holidays: [...initial.holidays]
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((holiday) => keyed({ date: holiday.date, name: holiday.name ?? "" })),
  }));
  const [errors, setErrors] = useState<FieldErrors>(noFieldErrors);
  const save = useSaveSetting<BusinessCalendar>("business-calendar");
  const zones = useMemo(() => timeZoneOptions(initial.timeZone), [initial.timeZone]);

  // Errors point at positions; after an edit they may point at the wrong row, so they go.
  const change = (update: (current: CalendarDraft) => CalendarDraft) => {
    setDraft(update);
    setErrors(noFieldErrors);
  };
  const changeTimeZone = useCallback((timeZone: string) => {
    setDraft((current) => ({ ...current, timeZone }));
    setErrors(noFieldErrors);
  }, []);
  const changeDay = (day: Weekday, update: (rows: IntervalRow[]) => IntervalRow[]) =>
    change((current) => ({
      ...current,
      workingHours: { ...current.workingHours, [day]: update(current.workingHours[day]) },
    }));
  const changeHoliday = (key: number, patch: Partial<HolidayRow>) =>
    change((current) => ({
      ...current,
      holidays: current.holidays.map((row) => (row.key === key ? { ...row, ...patch } : row)),
    }));

  const handleSave = () => {
    const value = {
      timeZone: draft.timeZone,
      workingHours: Object.fromEntries(
        weekdays.map((day) => [day, draft.workingHours[day].map(({ open, close }) => ({ open, close }))]),
      ),
      // An empty name is no name.
      holidays: draft.holidays.map(({ date, name }) => (name.trim() ? { date, name } : { date })),
    };
    const checked = businessCalendarSchema.safeParse(value);
    if (!checked.success) return setErrors(fieldErrorsOf(checked.error.issues));
    save.mutate(checked.data, {
      onSuccess: () => toast.success(settingsSaved),
      onError: (error) => setErrors(fieldErrorsFromServer(error)),
    });
  };

  // Whatever is not shown beside a field: said once above the Save button.
  const isShownAtField = (path: string) =>
    path === "timeZone" ||
    path === "workingHours" ||
    weekdays.some((day) => path === `workingHours.${day}` || path.startsWith(`workingHours.${day}.`)) ||
    /^holidays\.\d+(\.|$)/.test(path);
  const otherErrors = Object.entries(errors)
    .filter(([path]) => !isShownAtField(path))
    .map(([, message]) => message);
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Business hours</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <Trans>
            Service-level targets count only these hours. Times are on a 24-hour clock in the time zone below;
            24:00 is midnight at the end of the day. Holidays are whole days off.
          </Trans>
        </p>
      </div>

      <Field label={t`Time zone`} htmlFor={`${id}-zone`} error={errors.timeZone} className="max-w-sm">
        <TimeZoneSelect
          id={`${id}-zone`}
          value={draft.timeZone}
          isInvalid={errors.timeZone !== undefined}
          options={zones}
          onChange={changeTimeZone}
        />
      </Field>

      <section aria-labelledby={`${id}-hours`}>
        <h3 id={`${id}-hours`} className="text-sm font-semibold text-slate-900">
          <Trans>Working hours</Trans>
        </h3>
        {errors.workingHours ? (
          <p className="mt-1 text-sm text-red-600" role="alert">
            {errors.workingHours}
          </p>
        ) : null}
        <ul className="mt-2 flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200">
          {weekdays.map((day) => (
            <WorkingDayRow
              key={day}
              day={day}
              rows={draft.workingHours[day]}
              errors={errors}
              onChange={(update) => changeDay(day, update)}
              newRow={() => keyed(nextInterval(draft.workingHours[day]))}
            />
          ))}
        </ul>
      </section>

      <HolidaysSection
        id={id}
        holidays={draft.holidays}
        errors={errors}
        onChangeHoliday={changeHoliday}
        onRemove={(key) =>
          change((current) => ({
            ...current,
            holidays: current.holidays.filter((row) => row.key !== key),
          }))
        }
        onAdd={() =>
          change((current) => ({
            ...current,
            holidays: [...current.holidays, keyed({ date: "", name: "" })],
          }))
        }
      />

      {hasErrors ? (
        <Alert>
          <Trans>Not saved: correct the marked fields.</Trans>
          {otherErrors.length > 0 ? ` ${otherErrors.join(" ")}` : null}
        </Alert>
      ) : null}
      <div className="flex justify-end">
        <Button onClick={handleSave} disabled={save.isPending}>
          {save.isPending ? t`Saving…` : t`Save`}
        </Button>
      </div>
    </div>
  );
}

/** The holidays: whole days off, each with an optional name. */
function HolidaysSection({
  id,
  holidays,
  errors,
  onChangeHoliday,
  onRemove,
  onAdd,
}: {
  id: string;
  holidays: HolidayRow[];
  errors: FieldErrors;
  onChangeHoliday: (key: number, patch: Partial<HolidayRow>) => void;
  onRemove: (key: number) => void;
  onAdd: () => void;
}) {
  const { t } = useLingui();
  return (
    <section aria-labelledby={`${id}-holidays`}>
      <h3 id={`${id}-holidays`} className="text-sm font-semibold text-slate-900">
        <Trans>Holidays</Trans>
      </h3>
      {errors.holidays ? <p className="mt-1 text-sm text-red-600">{errors.holidays}</p> : null}
      {holidays.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          <Trans>No holidays.</Trans>
        </p>
      ) : (
        <ul className="mt-2 flex flex-col gap-3">
          {holidays.map((holiday, index) => {
            const rowErrors = errorsWithin(errors, `holidays.${index}`);
            const dateId = `${id}-holiday-${holiday.key}-date`;
            const nameId = `${id}-holiday-${holiday.key}-name`;
            const description = holiday.name.trim() || holiday.date || t`holiday ${index + 1}`;
            const messagesId = `${id}-holiday-${holiday.key}-errors`;
            const describedBy = rowErrors.length > 0 ? messagesId : undefined;
            return (
              <li key={holiday.key} className="flex flex-col gap-1">
                <div className="flex flex-wrap items-end gap-2">
                  <div className="flex flex-col gap-1">
                    <label htmlFor={dateId} className="text-xs font-medium text-slate-600">
                      <Trans>Date</Trans>
                    </label>
                    <Input
                      id={dateId}
                      type="date"
                      className="max-w-44"
                      value={holiday.date}
                      invalid={errors[`holidays.${index}.date`] !== undefined}
                      aria-describedby={describedBy}
                      onChange={(event) => onChangeHoliday(holiday.key, { date: event.target.value })}
                    />
                  </div>
                  <div className="flex min-w-40 flex-1 flex-col gap-1">
                    <label htmlFor={nameId} className="text-xs font-medium text-slate-600">
                      <Trans>Name (optional)</Trans>
                    </label>
                    <Input
                      id={nameId}
                      value={holiday.name}
                      maxLength={holidayNameMaxLength + 20}
                      autoComplete="off"
                      invalid={errors[`holidays.${index}.name`] !== undefined}
                      aria-describedby={describedBy}
                      onChange={(event) => onChangeHoliday(holiday.key, { name: event.target.value })}
                    />
                  </div>
                  <Button
                    variant="ghost"
                    className="px-2 text-red-600 hover:text-red-700"
                    aria-label={t`Remove holiday ${description}`}
                    onClick={() => onRemove(holiday.key)}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </div>
                {rowErrors.length > 0 ? (
                  <div id={messagesId}>
                    {rowErrors.map((message) => (
                      <p key={message} className="text-sm text-red-600">
                        {message}
                      </p>
                    ))}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <Button
        variant="secondary"
        size="sm"
        className="mt-3"
        disabled={holidays.length >= holidaysMax}
        onClick={onAdd}
      >
        <Plus aria-hidden="true" className="size-4" />
        <Trans>Add holiday</Trans>
      </Button>
    </section>
  );
}

/** Some 400 zones: drawn again only when the zone or its error changes, not on every keystroke elsewhere. */
const TimeZoneSelect = memo(function TimeZoneSelect({
  id,
  value,
  isInvalid,
  options,
  onChange,
}: {
  id: string;
  value: string;
  isInvalid: boolean;
  options: readonly { value: string; label: string }[];
  onChange: (zone: string) => void;
}) {
  return (
    <Select
      id={id}
      value={value}
      invalid={isInvalid}
      options={options}
      onChange={(event) => onChange(event.target.value)}
    />
  );
});
