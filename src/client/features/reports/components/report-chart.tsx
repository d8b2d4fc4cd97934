import { t as tc } from "@lingui/core/macro";
import { useEffect, useRef, useState } from "react";
import type uPlot from "uplot";
import { type ChartData, formatValue } from "#client/features/reports/chart-data.ts";

const height = 240;
const countSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000];

/** uPlot and its stylesheet, fetched the first time a chart is drawn: no other screen pays for them. */
const loadUPlot = () =>
  Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([module]) => module.default);

function optionsFor(UPlot: typeof uPlot, data: ChartData, width: number, title: string): uPlot.Options {
  const count = data.labels.length;
  const indexes = data.labels.map((_, i) => i);
  // As many x labels as fit (about one per 72 px), always the first.
  const every = Math.max(1, Math.ceil(count / Math.max(2, Math.floor(width / 72))));
  const drawn = data.series.filter((series) => !series.tableOnly);
  const side = drawn.length > 1;
  // The canvas does not read CSS: axis text and grid in the theme's slate-600 / slate-200 (decision 035).
  const dark = document.documentElement.classList.contains("dark");
  const axisColor = dark ? "#cbd5e1" : "#475569";
  const gridColor = dark ? "#334155" : "#e2e8f0";
  return {
    title: undefined,
    width,
    height,
    // The canvas is an image to sighted people; the table view (and its caption) is its text.
    scales: {
      x: { time: false, range: [-0.5, Math.max(0.5, count - 0.5)] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      {
        splits: () => indexes.filter((i) => i % every === 0),
        values: (_u, splits) => splits.map((i) => data.labels[i] ?? ""),
        grid: { show: false },
        stroke: axisColor,
      },
      {
        incrs: data.isCount ? countSteps : undefined,
        values: (_u, splits) => splits.map((value) => formatValue(data, value)),
        size: data.format ? 70 : 50,
        stroke: axisColor,
        grid: { stroke: gridColor, width: 1 },
      },
    ],
    series: [
      { label: data.category, value: (_u, i) => (i === null ? "" : (data.labels[i] ?? "")) },
      ...drawn.map((series, n) => ({
        label: series.label,
        stroke: series.color,
        width: 2,
        fill: data.kind === "bar" ? series.color : undefined,
        value: (_u: uPlot, value: number | null) => (value === null ? "" : formatValue(data, value)),
        points: { show: data.kind === "line" && count <= 45 },
        paths:
          data.kind === "bar"
            ? UPlot.paths.bars?.({ size: [side ? 0.35 : 0.6, 64], align: side ? (n === 0 ? -1 : 1) : 0 })
            : undefined,
      })),
    ],
    cursor: { drag: { x: false, y: false }, points: { show: data.kind === "line" } },
    legend: { show: true, live: true },
    hooks: {
      // One image to screen readers (its legend too): the card's Table view is their way to the figures.
      init: [
        (u) => {
          u.root.setAttribute("role", "img");
          u.root.setAttribute("aria-label", tc`${title} chart; Table view lists its figures`);
        },
      ],
    },
  };
}

/**
 * One chart drawn by uPlot on a canvas, as wide as its container. `onCanvas` hands the canvas to the card
 * for Download PNG. If uPlot cannot load or draw (an old browser, a failed chunk), the card says so and
 * the table view still has every figure.
 */
export function ReportChart({
  data,
  title,
  onCanvas,
}: {
  data: ChartData;
  title: string;
  onCanvas: (canvas: HTMLCanvasElement | null) => void;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let plot: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    loadUPlot()
      .then((UPlot) => {
        if (cancelled) return;
        const width = Math.max(240, container.clientWidth);
        const drawn = data.series.filter((series) => !series.tableOnly);
        plot = new UPlot(
          optionsFor(UPlot, data, width, title),
          [data.labels.map((_, i) => i), ...drawn.map((series) => series.values)],
          container,
        );
        onCanvas(plot.ctx.canvas);
        observer = new ResizeObserver(() => {
          const next = container.clientWidth;
          if (plot && next > 0 && Math.abs(next - plot.width) > 4) plot.setSize({ width: next, height });
        });
        observer.observe(container);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
      onCanvas(null);
    };
  }, [data, title, onCanvas]);

  return (
    <div>
      {failed ? (
        <p className="py-6 text-center text-sm text-slate-500">
          The chart could not be drawn here. Table view shows every figure.
        </p>
      ) : null}
      <div ref={containerRef} className="report-chart w-full min-w-0 overflow-hidden" aria-hidden={failed} />
    </div>
  );
}
