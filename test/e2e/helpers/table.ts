/** One printed table: its upper-case headers and each row as header → cell. */
export interface PrintedTable {
  headers: string[]
  rows: Record<string, string>[]
}

/**
 * Parses kubectl's human-readable output (one table, or several separated by blank lines as in
 * `get pods,deploy`). Columns are cut at the header positions: kubectl left-aligns every cell under
 * its header, and some headers (`NOMINATED NODE`) hold a space.
 */
export function parseTables(text: string): PrintedTable[] {
  const blocks = text
    .split(/\n\s*\n/)
    .map((b) => b.split('\n').filter((l) => l.trim() !== ''))
    .filter((b) => b.length > 0)
  return blocks.map(parseBlock)
}

/** Parses output that must hold exactly one table. */
export function parseTable(text: string): PrintedTable {
  const tables = parseTables(text)
  if (tables.length !== 1)
    throw new Error(`expected one table, found ${tables.length} in:\n${text}`)
  return tables[0]!
}

function parseBlock(lines: string[]): PrintedTable {
  const header = lines[0]!
  const starts: { name: string; at: number }[] = []
  const re = /\S+(?: \S+)*/g
  for (let m = re.exec(header); m; m = re.exec(header)) starts.push({ name: m[0], at: m.index })
  const rows = lines.slice(1).map((line) => {
    const row: Record<string, string> = {}
    starts.forEach((col, i) => {
      const end = i + 1 < starts.length ? starts[i + 1]!.at : line.length
      row[col.name] = line.slice(col.at, end).trim()
    })
    return row
  })
  return { headers: starts.map((s) => s.name), rows }
}
