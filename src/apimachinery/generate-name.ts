const generateNameAlphabet = 'bcdfghjklmnpqrstvwxz2456789'

/** generateName's suffix: five characters from the alphabet upstream uses (no vowels, no look-alikes). */
export function nameSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(5))
  return [...bytes].map((b) => generateNameAlphabet[b % generateNameAlphabet.length]).join('')
}
