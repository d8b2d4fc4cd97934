import { i18n } from "@lingui/core";
import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Field, Input } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { isUsableRange, type RangeChoice, rangePresets } from "#client/features/reports/report-range.ts";
import { type ReportGrouping, type ReportQuery, reportRangeDaysMax } from "#shared/reports/report.schemas.ts";

const rangeOptionsOf = () => [
  ...rangePresets.map(({ value, label }) => ({ value, label: i18n._(label) })),
  { value: "custom", label: tc`Custom` },
];
const groupOptionsOf = () => [
  { value: "day", label: tc`By day` },
  { value: "week", label: tc`By week` },
];

interface ReportRangePickerProps {
  choice: RangeChoice;
  query: ReportQuery;
  onPreset: (choice: Exclude<RangeChoice, "custom">) => void;
  onCustom: (range: { from: string; to: string }) => void;
  onGroup: (group: ReportGrouping) => void;
}

/** Last 7/30/90 days or a custom from–to (at most 366 days), and day or week buckets. */
export function ReportRangePicker({ choice, query, onPreset, onCustom, onGroup }: ReportRangePickerProps) {
  const { t } = useLingui();
  const id = useId();
  const [isCustom, setIsCustom] = useState(choice === "custom");
  const [from, setFrom] = useState(query.from);
  const [to, setTo] = useState(query.to);
  const [error, setError] = useState<string | undefined>();

  const handleApply = (event: FormEvent) => {
    event.preventDefault();
    if (!isUsableRange(from, to)) {
      setError(t`Choose a start on or before the end, at most ${reportRangeDaysMax} days apart.`);
      return;
    }
    setError(undefined);
    onCustom({ from, to });
  };

  return (
    <form
      onSubmit={handleApply}
      className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end"
      aria-label={t`Report range`}
    >
      <Field label={t`Range`} htmlFor={`${id}-range`} className="sm:w-44">
        <Select
          id={`${id}-range`}
          options={rangeOptionsOf()}
          value={isCustom ? "custom" : choice}
          onChange={(event) => {
            const value = event.target.value as RangeChoice;
            if (value === "custom") {
              setIsCustom(true);
              setFrom(query.from);
              setTo(query.to);
            } else {
              setIsCustom(false);
              setError(undefined);
              onPreset(value);
            }
          }}
        />
      </Field>
      {isCustom ? (
        <>
          <Field label={t`From`} htmlFor={`${id}-from`} className="sm:w-44">
            <Input
              id={`${id}-from`}
              type="date"
              value={from}
              required
              invalid={error !== undefined}
              onChange={(event) => setFrom(event.target.value)}
            />
          </Field>
          <Field label={t`To`} htmlFor={`${id}-to`} className="sm:w-44" error={error}>
            <Input
              id={`${id}-to`}
              type="date"
              value={to}
              required
              invalid={error !== undefined}
              onChange={(event) => setTo(event.target.value)}
            />
          </Field>
          <Button type="submit" variant="secondary" className="sm:mb-px">
            <Trans>Apply</Trans>
          </Button>
        </>
      ) : null}
      <Field label={t`Group`} htmlFor={`${id}-group`} className="sm:w-36">
        <Select
          id={`${id}-group`}
          options={groupOptionsOf()}
          value={query.group}
          onChange={(event) => onGroup(event.target.value as ReportGrouping)}
        />
      </Field>
    </form>
  );
}
