/**
 * The per-day chart of /insights, drawn on the server as plain SVG with visx (@visx/scale,
 * @visx/shape, @visx/group: d3's scales and shapes as React components, no client script). It
 * stretches to its column's width, phones included; its numbers are the table beside it
 * (days-panel.tsx), so the picture itself is hidden from assistive technology.
 */
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { BarGroup } from "@visx/shape";
import type { DayRow } from "@/lib/insights/dto";

export const DAY_SERIES = ["waited", "decided", "overdue"] as const;
export type DaySeries = (typeof DAY_SERIES)[number];

/** Each series' colour: 3:1 and more against white, and told apart by the legend's words too. */
export const SERIES_FILL: Record<DaySeries, string> = {
  waited: "fill-neutral-500",
  decided: "fill-sky-700",
  overdue: "fill-red-600",
};

const WIDTH = 720;
const HEIGHT = 200;

export function DaysChart({ days, max }: { days: DayRow[]; max: number }) {
  const x0Scale = scaleBand<string>({ domain: days.map((day) => day.date), range: [0, WIDTH], paddingInner: 0.2, paddingOuter: 0.1 });
  const x1Scale = scaleBand<DaySeries>({ domain: [...DAY_SERIES], range: [0, x0Scale.bandwidth()], padding: 0.05 });
  const yScale = scaleLinear<number>({ domain: [0, Math.max(1, max)], range: [HEIGHT, 0] });
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT + 1}`}
      preserveAspectRatio="none"
      className="block h-40 w-full sm:h-48"
      aria-hidden="true"
      focusable="false"
      data-testid="days-chart"
    >
      <line x1={0} x2={WIDTH} y1={0.5} y2={0.5} className="stroke-neutral-200" strokeDasharray="4 4" vectorEffect="non-scaling-stroke" />
      <Group>
        <BarGroup<DayRow, DaySeries>
          data={days}
          keys={[...DAY_SERIES]}
          height={HEIGHT}
          x0={(day) => day.date}
          x0Scale={x0Scale}
          x1Scale={x1Scale}
          yScale={yScale}
          color={() => "currentColor"}
        >
          {(groups) =>
            groups.map((group) => (
              <Group key={group.index} left={group.x0}>
                {group.bars.map((bar) =>
                  bar.value > 0 ? (
                    <rect
                      key={bar.key}
                      x={bar.x}
                      y={bar.y}
                      width={bar.width}
                      height={Math.max(1, bar.height)}
                      className={SERIES_FILL[bar.key]}
                    />
                  ) : null,
                )}
              </Group>
            ))
          }
        </BarGroup>
      </Group>
      <line x1={0} x2={WIDTH} y1={HEIGHT + 0.5} y2={HEIGHT + 0.5} className="stroke-neutral-400" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
