import { Trans, useLingui } from "@lingui/react/macro";
import { BarChart3, Download, Table2 } from "lucide-react";
import { type ReactNode, useCallback, useId, useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  type ChartData,
  chartCsv,
  downloadBlob,
  isEmptyChart,
  tableRows,
} from "#client/features/reports/chart-data.ts";
import { ReportChart } from "./report-chart.tsx";

interface ChartCardProps {
  title: string;
  description?: ReactNode;
  /** undefined while loading. */
  data: ChartData | undefined;
  isError: boolean;
  onRetry: () => void;
  /** The downloads' name without extension. */
  fileName: string;
  emptyMessage: string;
  /** Figures shown above the chart (averages, medians). */
  summary?: ReactNode;
  /** Shown under the chart (the latest comments). */
  footer?: ReactNode;
}

/**
 * The chart on the card's background with its title, as a PNG (the canvas alone is transparent): white,
 * or slate-900 in the dark theme, where the axes were drawn light (decision 035).
 */
function pngOf(canvas: HTMLCanvasElement, title: string): Promise<Blob | null> {
  const ratio = window.devicePixelRatio || 1;
  const band = Math.round(36 * ratio);
  const image = document.createElement("canvas");
  image.width = canvas.width;
  image.height = canvas.height + band;
  const context = image.getContext("2d");
  if (!context) return Promise.resolve(null);
  const dark = document.documentElement.classList.contains("dark");
  context.fillStyle = dark ? "#0f172a" : "#ffffff";
  context.fillRect(0, 0, image.width, image.height);
  context.fillStyle = dark ? "#f8fafc" : "#0f172a";
  context.font = `600 ${Math.round(15 * ratio)}px system-ui, sans-serif`;
  context.fillText(title, Math.round(8 * ratio), Math.round(24 * ratio));
  context.drawImage(canvas, 0, band);
  return new Promise((resolve) => image.toBlob(resolve, "image/png"));
}

/**
 * One report: heading, chart (or the empty state), and for every chart a Table view toggle (a real
 * table with a caption for screen readers), Download PNG and Download CSV.
 */
export function ChartCard({
  title,
  description,
  data,
  isError,
  onRetry,
  fileName,
  emptyMessage,
  summary,
  footer,
}: ChartCardProps) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const [showTable, setShowTable] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const [hasCanvas, setHasCanvas] = useState(false);
  const handleCanvas = useCallback((canvas: HTMLCanvasElement | null) => {
    canvasRef.current = canvas;
    setHasCanvas(canvas !== null);
  }, []);
  const isEmpty = data !== undefined && isEmptyChart(data);

  const handleDownloadPng = async () => {
    if (!canvasRef.current) return;
    const blob = await pngOf(canvasRef.current, title);
    if (blob) downloadBlob(blob, `${fileName}.png`);
  };
  const handleDownloadCsv = () => {
    if (!data) return;
    downloadBlob(new Blob([chartCsv(data)], { type: "text/csv;charset=utf-8" }), `${fileName}.csv`);
  };

  // Inside a sentence: English lowercases the title ("Could not load backlog."), German keeps its nouns' capitals.
  const titleInSentence = i18n.locale === "en" ? title.toLowerCase() : title;

  return (
    <Card className="min-w-0" aria-labelledby={headingId} role="region">
      <div className="flex flex-col gap-3 border-b border-slate-100 px-4 py-3 sm:px-5">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-sm text-slate-500">{description}</p> : null}
        </div>
        {data && !isEmpty ? (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              aria-pressed={showTable}
              onClick={() => setShowTable(!showTable)}
            >
              {showTable ? (
                <BarChart3 aria-hidden="true" className="size-4" />
              ) : (
                <Table2 aria-hidden="true" className="size-4" />
              )}
              <Trans>Table view</Trans>
            </Button>
            <Button variant="secondary" size="sm" onClick={handleDownloadPng} disabled={!hasCanvas}>
              <Download aria-hidden="true" className="size-4" />
              <Trans>Download PNG</Trans>
            </Button>
            <Button variant="secondary" size="sm" onClick={handleDownloadCsv}>
              <Download aria-hidden="true" className="size-4" />
              <Trans>Download CSV</Trans>
            </Button>
          </div>
        ) : null}
      </div>
      <div className="px-4 py-4 sm:px-5">
        {isError ? (
          <LoadFailed message={t`Could not load ${titleInSentence}.`} onRetry={onRetry} />
        ) : data === undefined ? (
          <div className="flex justify-center py-10">
            <Spinner label={t`Loading ${titleInSentence}`} />
          </div>
        ) : isEmpty ? (
          <EmptyState icon={BarChart3} title={t`No data`} description={emptyMessage} />
        ) : (
          <>
            {summary}
            {/* Kept drawn while the table shows, so Download PNG works from either view. */}
            <div hidden={showTable}>
              <ReportChart data={data} title={title} onCanvas={handleCanvas} />
            </div>
            {showTable ? <ChartTable data={data} title={title} /> : null}
            {footer}
          </>
        )}
      </div>
    </Card>
  );
}

function ChartTable({ data, title }: { data: ChartData; title: string }) {
  return (
    <div className="max-h-96 overflow-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{title}</caption>
        <thead className="sticky top-0 bg-white text-xs tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {data.category}
            </th>
            {data.series.map((series) => (
              <th key={series.label} scope="col" className="py-2 pr-3 text-right font-medium">
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">
          {tableRows(data).map(([label, ...cells], row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional (one per label, labels may repeat)
            <tr key={row}>
              <th scope="row" className="py-1.5 pr-3 font-normal">
                {label}
              </th>
              {cells.map((cell, column) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one cell per series, in series order
                <td key={column} className="py-1.5 pr-3 text-right tabular-nums">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
