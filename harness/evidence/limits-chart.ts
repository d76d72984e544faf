/**
 * A chart of one LIM series as inline SVG, pure: cost against size, both axes logarithmic
 * (decades marked), each repeat a point, the medians joined by a line, the axes labelled with
 * the size's letter and unit and the series' unit.
 *
 *   chartSvg({ title: "GET s1", x: "N (versions)", y: "ms", points });
 */
import { escapeXml } from "../../lib/xml.ts";

export interface ChartInput {
  title: string;
  x: string;
  y: string;
  points: ReadonlyArray<{ size: number; median: number; repeats: readonly number[] }>;
}

const WIDTH = 360;
const HEIGHT = 240;
const MARGIN = { left: 58, right: 14, top: 26, bottom: 44 };

/** The decades around the values, a value's position between them, and the ticks to mark. */
function logScale(values: number[], from: number, to: number) {
  const positive = values.filter((v) => v > 0);
  let low = Math.floor(Math.log10(Math.min(...positive)));
  let high = Math.ceil(Math.log10(Math.max(...positive)));
  if (high === low) {
    low -= 0.5;
    high += 0.5;
  }
  const at = (v: number) => from + ((Math.log10(Math.max(v, 10 ** low)) - low) / (high - low)) * (to - from);
  const ticks: number[] = [];
  for (let e = Math.ceil(low); e <= Math.floor(high); e++) ticks.push(10 ** e);
  return { at, ticks };
}

function tickLabel(value: number): string {
  if (value >= 1000) return `${value / 1000 >= 1000 ? `${value / 1e6}M` : `${value / 1000}k`}`;
  return value >= 1 ? String(value) : value.toPrecision(1);
}

export function chartSvg({ title, x, y, points }: ChartInput): string {
  if (points.length === 0) return `<p class="no-chart">${escapeXml(title)}: nothing measured</p>`;
  const costs = points.flatMap((p) => p.repeats);
  const sx = logScale(
    points.map((p) => p.size),
    MARGIN.left,
    WIDTH - MARGIN.right,
  );
  const sy = logScale(costs, HEIGHT - MARGIN.bottom, MARGIN.top);
  const bottom = HEIGHT - MARGIN.bottom;
  const parts: string[] = [
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${WIDTH - MARGIN.left - MARGIN.right}" height="${bottom - MARGIN.top}" class="plot"/>`,
  ];
  for (const tick of sx.ticks) {
    const at = sx.at(tick).toFixed(1);
    parts.push(`<line x1="${at}" x2="${at}" y1="${MARGIN.top}" y2="${bottom}" class="grid"/>`);
    // Low enough to clear the lowest cost's label, which sits on the plot's bottom edge.
    parts.push(`<text x="${at}" y="${bottom + 17}" text-anchor="middle">${tickLabel(tick)}</text>`);
  }
  for (const tick of sy.ticks) {
    const at = sy.at(tick).toFixed(1);
    parts.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${at}" y2="${at}" class="grid"/>`);
    parts.push(
      `<text x="${MARGIN.left - 5}" y="${at}" text-anchor="end" dominant-baseline="middle">${tickLabel(tick)}</text>`,
    );
  }
  const line = points.map((p) => `${sx.at(p.size).toFixed(1)},${sy.at(p.median).toFixed(1)}`).join(" ");
  parts.push(`<polyline points="${line}" class="median"/>`);
  for (const p of points)
    for (const cost of p.repeats)
      parts.push(
        `<circle cx="${sx.at(p.size).toFixed(1)}" cy="${sy.at(cost).toFixed(1)}" r="2.5" class="repeat"><title>${p.size}: ${cost.toFixed(3)} ${escapeXml(y)}</title></circle>`,
      );
  parts.push(
    `<text x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 8}" text-anchor="middle" class="axis">${escapeXml(x)}, log scale</text>`,
    `<text transform="translate(14 ${(MARGIN.top + bottom) / 2}) rotate(-90)" text-anchor="middle" class="axis">${escapeXml(y)}, log scale</text>`,
    `<text x="${MARGIN.left}" y="16" class="title">${escapeXml(title)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeXml(`${title}: ${y} against ${x}`)}">${parts.join("")}</svg>`;
}

/** The chart's styles, for the page that holds the charts. */
export const CHART_CSS = `svg text { font: 11px system-ui, sans-serif; fill: #222; }
svg .title { font-weight: 600; font-size: 12px; }
svg .axis { fill: #444; }
svg .plot { fill: #fafafa; stroke: #999; }
svg .grid { stroke: #ddd; }
svg .median { fill: none; stroke: #36c; stroke-width: 1.5; }
svg .repeat { fill: #36c; fill-opacity: 0.45; }`;
