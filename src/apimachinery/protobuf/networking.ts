import { ObjectMeta } from './meta'
import { inline, int, list, msg, str, strs, type Table } from './schema'

/** networking.k8s.io/v1 Ingress (what `kubectl create ingress` sends). Status is the server's to write. */

const IngressBackend: Table = {
  3: msg('resource', () => ({ 1: str('apiGroup'), 2: str('kind'), 3: str('name') })),
  4: msg('service', () => ({
    1: str('name'),
    2: msg('port', () => ({ 1: str('name'), 2: int('number') })),
  })),
}

const HTTPIngressPath: Table = {
  1: str('path'),
  3: str('pathType'),
  2: msg('backend', () => IngressBackend),
}

const IngressRule: Table = {
  1: str('host'),
  // IngressRuleValue is embedded: its `http` sits directly in the rule.
  2: inline(() => ({ 1: msg('http', () => ({ 1: list('paths', () => HTTPIngressPath) })) })),
}

const IngressSpec: Table = {
  4: str('ingressClassName'),
  1: msg('defaultBackend', () => IngressBackend),
  2: list('tls', () => ({ 1: strs('hosts'), 2: str('secretName') })),
  3: list('rules', () => IngressRule),
}

export const Ingress: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => IngressSpec),
  3: msg('status', () => ({})),
}
