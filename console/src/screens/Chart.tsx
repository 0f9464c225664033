import "uplot/dist/uPlot.min.css";

import { useEffect, useRef } from "react";
import uPlot from "uplot";

/** uPlot (a small, fast charting library) in a React component: drawn once per data or options
 * change, resized with its container. */
export function Chart({ options, data, height = 200, testId }: { options: Omit<uPlot.Options, "width" | "height">; data: uPlot.AlignedData; height?: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const plot = new uPlot({ ...options, width: Math.max(element.clientWidth, 200), height }, data, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [options, data, height]);
  return <div ref={box} data-testid={testId} style={{ width: "100%", overflow: "hidden" }} />;
}

export const COLOURS = ["#12b886", "#40c057", "#228be6", "#fd7e14", "#be4bdb"];

const DAY = 86_400;
// counts and shillings: ticks on whole numbers
const WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A line per series over days (x in Unix seconds): ticks on whole days, "26 Nov". */
export function lineOptions(
  series: { label: string; colour: string }[],
  valueFormat?: (v: number) => string,
  whole = true,
): Omit<uPlot.Options, "width" | "height"> {
  return {
    scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] } },
    axes: [
      {
        incrs: [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY],
        values: (_u, ticks) => ticks.map((t) => {
          const d = new Date(t * 1000);
          return `${d.getDate()} ${MONTHS[d.getMonth()]}`;
        }),
        space: 50,
      },
      {
        values: (_u, ticks) => ticks.map((v) => (valueFormat ? valueFormat(v) : String(v))),
        size: valueFormat && valueFormat(100000).length > 6 ? 90 : 50,
        ...(whole ? { incrs: WHOLE } : {}),
      },
    ],
    series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.colour, width: 2, points: { show: true, size: 5 } }))],
    legend: { show: series.length > 1, live: false },
  };
}

/** Bars over named categories (x: 0..n-1). */
export function barOptions(labels: string[], label: string, colour: string): Omit<uPlot.Options, "width" | "height"> {
  return {
    scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [
      { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? (labels[t] ?? "") : "")), splits: () => labels.map((_, i) => i), size: 40 },
      { size: 50, incrs: WHOLE },
    ],
    series: [{}, { label, fill: colour, stroke: colour, paths: uPlot.paths.bars!({ size: [0.6, 80] }), points: { show: false } }],
    legend: { show: false },
  };
}
