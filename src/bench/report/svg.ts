import type { LatencyRow, Report } from './model'
import { num } from './format'

const WIDTH = 960
const LABEL_W = 330
const PLOT_X0 = LABEL_W + 10
const PLOT_X1 = WIDTH - 70
const TOP = 70
const BAR_H = 11
const ROW_GAP = 16
const SERIES = [
  { key: 'p50', color: '#4e79a7' },
  { key: 'p90', color: '#f28e2b' },
  { key: 'p99', color: '#e15759' },
] as const

/**
 * Latency percentiles per scenario as horizontal bars on a log scale (the scenarios span
 * sub-millisecond to hundreds of milliseconds). Plain SVG 1.1, no scripts or external styles.
 */
export function renderSvg(r: Report): string {
  const rows = r.latency
  const values = rows
    .flatMap((row) => SERIES.map((s) => row[s.key]))
    .filter((v) => Number.isFinite(v) && v > 0)
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(0.1, ...values))))
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(10, ...values))))
  const x = (v: number) =>
    PLOT_X0 +
    ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) *
      (PLOT_X1 - PLOT_X0)
  const rowH = SERIES.length * BAR_H + ROW_GAP
  const height = TOP + rows.length * rowH + 40
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">${esc(`edgeplane latency percentiles (ms, log scale) — ${String(r.meta.mode)}, medians of ${String(r.meta.repetitions)} repetition(s)`)}</text>`,
  ]
  SERIES.forEach((s, i) => {
    const lx = PLOT_X0 + i * 70
    out.push(
      `<rect x="${lx}" y="34" width="12" height="12" fill="${s.color}"/><text x="${lx + 16}" y="44">${s.key}</text>`,
    )
  })
  const bottom = TOP + rows.length * rowH - ROW_GAP / 2
  for (let d = lo; d <= hi * 1.0001; d *= 10) {
    const gx = x(d).toFixed(1)
    out.push(`<line x1="${gx}" y1="${TOP - 8}" x2="${gx}" y2="${bottom}" stroke="#dddddd"/>`)
    out.push(
      `<text x="${gx}" y="${bottom + 16}" text-anchor="middle" fill="#555555">${num(d)}</text>`,
    )
  }
  rows.forEach((row, i) => out.push(...rowSvg(row, TOP + i * rowH, x)))
  out.push('</svg>', '')
  return out.join('\n')
}

function rowSvg(row: LatencyRow, y: number, x: (v: number) => number): string[] {
  const out = [
    `<text x="${LABEL_W}" y="${y + (SERIES.length * BAR_H) / 2 + 4}" text-anchor="end">${esc(row.scenario)}</text>`,
  ]
  SERIES.forEach((s, j) => {
    const v = row[s.key]
    const by = y + j * BAR_H
    if (!Number.isFinite(v)) {
      out.push(
        `<text x="${PLOT_X0 + 4}" y="${by + BAR_H - 2}" font-size="10" fill="#888888">n/a</text>`,
      )
      return
    }
    const w = Math.max(1, x(v) - PLOT_X0)
    out.push(
      `<rect x="${PLOT_X0}" y="${by}" width="${w.toFixed(1)}" height="${BAR_H - 1}" fill="${s.color}"/>`,
    )
    out.push(
      `<text x="${(PLOT_X0 + w + 4).toFixed(1)}" y="${by + BAR_H - 2}" font-size="10">${esc(num(v))}</text>`,
    )
  })
  return out
}

function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}
