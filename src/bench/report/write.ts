import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from './model'
import { renderMarkdown } from './markdown'
import { renderSvg } from './svg'

/** Writes report.json, report.md and chart.svg into `dir`; returns their paths. */
export async function writeReport(
  dir: string,
  report: Report,
): Promise<{ json: string; markdown: string; svg: string }> {
  await mkdir(dir, { recursive: true })
  const paths = {
    json: join(dir, 'report.json'),
    markdown: join(dir, 'report.md'),
    svg: join(dir, 'chart.svg'),
  }
  await Promise.all([
    writeFile(paths.json, JSON.stringify(report, null, 2) + '\n'),
    writeFile(paths.markdown, renderMarkdown(report)),
    writeFile(paths.svg, renderSvg(report)),
  ])
  return paths
}
