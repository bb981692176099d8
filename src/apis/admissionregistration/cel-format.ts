/**
 * Kubernetes' format CEL library (k8s.io/apiserver/pkg/cel/library/format.go): the named string
 * formats `format.dns1123Label()`, `dns1123Subdomain`, `dns1035Label`, `qualifiedName`,
 * `dns1123LabelPrefix`, `dns1123SubdomainPrefix`, `dns1035LabelPrefix`, `labelValue`, `uri`,
 * `uuid`, `byte`, `date` and `datetime`, `format.named(name)` (an optional), and
 * `<format>.validate(string)`: none when the string has the format, else the list of what is wrong,
 * in upstream's words.
 */
import { Optional, type Environment } from '@marcbachmann/cel-js'
import {
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../../apimachinery/field-formats'
import { matchesFormat } from '../crd/formats'
import { parseRequestURI } from './cel-url-parse'

export class CelFormat {
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
  ) {}
}

/** maskTrailingDash: a prefix may end in a dash, as generateName's do. */
const masked = (s: string) => (s.length > 1 && s.endsWith('-') ? `${s.slice(0, -2)}a` : s)

const strfmt = (format: string, message: string) => (s: string) =>
  matchesFormat(format, s) ? [] : [message]

const formats: Record<string, CelFormat> = {
  dns1123Label: new CelFormat('DNS1123Label', isDns1123Label),
  dns1123Subdomain: new CelFormat('DNS1123Subdomain', isDns1123Subdomain),
  dns1035Label: new CelFormat('DNS1035Label', isDns1035Label),
  qualifiedName: new CelFormat('QualifiedName', isQualifiedName),
  dns1123LabelPrefix: new CelFormat('DNS1123LabelPrefix', (s) => isDns1123Label(masked(s))),
  dns1123SubdomainPrefix: new CelFormat('DNS1123SubdomainPrefix', (s) =>
    isDns1123Subdomain(masked(s)),
  ),
  dns1035LabelPrefix: new CelFormat('DNS1035LabelPrefix', (s) => isDns1035Label(masked(s))),
  labelValue: new CelFormat('LabelValue', isValidLabelValue),
  uri: new CelFormat('URI', (s) => {
    try {
      parseRequestURI(s)
      return []
    } catch (err) {
      return [(err as Error).message]
    }
  }),
  uuid: new CelFormat('uuid', strfmt('uuid', 'does not match the UUID format')),
  byte: new CelFormat('byte', strfmt('byte', 'invalid base64')),
  date: new CelFormat('date', strfmt('date', 'invalid date')),
  datetime: new CelFormat('datetime', strfmt('datetime', 'invalid datetime')),
}

/** `format`, whose methods name the formats. */
class FormatNamespace {}

const F = 'kubernetes.NamedFormat'
const NS = 'kubernetes.FormatNamespace'

export function registerFormatLibrary(env: Environment): void {
  env.registerType(F, CelFormat)
  env.registerType(NS, FormatNamespace)
  env.registerConstant('format', NS, new FormatNamespace())
  for (const [name, format] of Object.entries(formats))
    env.registerFunction(`${NS}.${name}(): ${F}`, () => format)
  env.registerFunction(
    `${NS}.named(string): optional<${F}>`,
    (_ns: FormatNamespace, name: string) =>
      Object.hasOwn(formats, name) ? Optional.of(formats[name]) : Optional.none(),
  )
  env.registerFunction(
    `${F}.validate(string): optional<list<string>>`,
    (f: CelFormat, s: string) => {
      const errors = f.validate(s)
      return errors.length ? Optional.of(errors) : Optional.none()
    },
  )
  env.registerOperator(`${F} == ${F}`, (a: CelFormat, b: CelFormat) => a.name === b.name)
}
