/** Go's %v of a float64: the shortest digits, in exponent form below 1e-4 and from 1e21. */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN'
  if (n === 0) return Object.is(n, -0) ? '-0' : '0'
  const [mantissa, exp] = n.toExponential().split('e') as [string, string]
  const e = Number(exp)
  if (e < -4 || e >= 21) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`
  return String(n)
}
