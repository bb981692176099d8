/** Tables for admissionregistration.k8s.io webhook configurations and admission policies (columns of upstream's printers). */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { formatLabelSelector, list } from './format'
import type { LabelSelector } from './format'
import type {
  AdmissionPolicy,
  AdmissionPolicyBinding,
  ParamRef,
} from '../apis/admissionregistration/admission-policy'

export const webhookConfigurationPrinter: Printer = {
  columns: [
    nameColumn,
    column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks.'),
    ageColumn,
  ],
  cells(obj: KubeObject, now) {
    return [
      objectName(obj),
      list((obj as { webhooks?: unknown[] }).webhooks).length,
      objectAge(obj, now),
    ]
  },
}

export const admissionPolicyPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Validations',
      'integer',
      'Validations indicates the number of validation rules defined in this configuration',
    ),
    column(
      'ParamKind',
      'string',
      'ParamKind specifies the kind of resources used to parameterize this policy',
    ),
    ageColumn,
  ],
  cells(obj: KubeObject, now) {
    const spec = (obj as AdmissionPolicy).spec
    const paramKind = spec?.paramKind
      ? `${spec.paramKind.apiVersion ?? ''}/${spec.paramKind.kind ?? ''}`
      : '<unset>'
    return [objectName(obj), list(spec?.validations).length, paramKind, objectAge(obj, now)]
  },
}

export const admissionPolicyBindingPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'PolicyName',
      'string',
      'PolicyName indicates the policy definition which the policy binding binded to',
    ),
    column(
      'ParamRef',
      'string',
      'ParamRef indicates the param resource which sets the configration param',
    ),
    ageColumn,
  ],
  cells(obj: KubeObject, now) {
    const spec = (obj as AdmissionPolicyBinding).spec
    return [
      objectName(obj),
      spec?.policyName ?? '',
      paramRefCell(spec?.paramRef),
      objectAge(obj, now),
    ]
  },
}

/** `ns/name`, `*\/name` (the binding cannot tell whether the param kind is namespaced), or the selector. */
function paramRefCell(ref: ParamRef | undefined): string {
  if (!ref) return '<unset>'
  if (ref.name) return `${ref.namespace || '*'}/${ref.name}`
  if (ref.selector) return formatLabelSelector(ref.selector as LabelSelector)
  return '<unset>'
}
