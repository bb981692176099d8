/** Tables for networking.k8s.io: Ingress, IngressClass (columns of upstream's printers). */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { list } from './format'

interface Ingress extends KubeObject {
  spec?: { ingressClassName?: string; rules?: Array<{ host?: string }>; tls?: unknown[] }
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } }
}

interface IngressClass extends KubeObject {
  spec?: { controller?: string; parameters?: { apiGroup?: string; kind?: string; name?: string } }
}

/** formatHosts: up to four hosts, `*` for a rule without one, then `+ N more...`. */
function formatHosts(rules: Array<{ host?: string }>): string {
  const hosts = rules.map((r) => r.host || '*')
  if (hosts.length === 0) return '*'
  const shown = hosts.slice(0, 4).join(',')
  return hosts.length > 4 ? `${shown} + ${hosts.length - 4} more...` : shown
}

export const ingressPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Class',
      'string',
      'The name of the IngressClass resource that should be used for this Ingress.',
    ),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the paths.'),
    column(
      'Address',
      'string',
      'Address is a list containing ingress points for the load-balancer.',
    ),
    column('Ports', 'string', 'Ports of TLS configurations that open.'),
    ageColumn,
  ],
  cells(obj, now) {
    const ing = obj as Ingress
    const address = list(ing.status?.loadBalancer?.ingress)
      .map((i) => i.ip || i.hostname || '')
      .filter(Boolean)
      .join(',')
    return [
      objectName(ing),
      ing.spec?.ingressClassName || '<none>',
      formatHosts(list(ing.spec?.rules)),
      address,
      list(ing.spec?.tls).length ? '80, 443' : '80',
      objectAge(ing, now),
    ]
  },
}

export const ingressClassPrinter: Printer = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller that is responsible for handling this class.'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters.'),
    ageColumn,
  ],
  cells(obj, now) {
    const cls = obj as IngressClass
    const p = cls.spec?.parameters
    const params = p ? `${p.kind}.${p.apiGroup ?? ''}/${p.name}`.replace('./', '/') : '<none>'
    return [objectName(cls), cls.spec?.controller ?? '', params, objectAge(cls, now)]
  },
}
