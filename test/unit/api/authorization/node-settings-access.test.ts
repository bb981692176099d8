import { describe, expect, it } from 'vitest'
import { authorize } from '../../../../src/api/authorization/authorize'
import { serviceAccountUserInfo } from '../../../../src/api/authentication/user'

const someone = serviceAccountUserInfo({
  namespace: 'default',
  name: 'bot',
  uid: 'u-1',
  id: 'j-1',
  audiences: [],
  issuedAt: 1000,
  expiresAt: 4600,
})
const get = (namespace: string, name: string) => ({
  verb: 'get',
  group: '',
  resource: 'configmaps',
  namespace,
  name,
})

describe('the published node settings', () => {
  it('may be read by every authenticated user, as kubeadm lets everyone read kube-public/cluster-info', () => {
    expect(authorize(someone, get('kube-public', 'edgeplane-node-settings'))).toEqual({
      allowed: true,
      // Upstream names a RoleBinding `name/namespace`.
      reason:
        'RBAC: allowed by RoleBinding "edgeplane:node-settings-reader/kube-public" of Role "edgeplane:node-settings-reader" to Group "system:authenticated"',
    })
  })

  it('grants nothing else: no other ConfigMap, no other namespace, no list or write', () => {
    expect(authorize(someone, get('kube-public', 'other')).allowed).toBe(false)
    expect(authorize(someone, get('default', 'edgeplane-node-settings')).allowed).toBe(false)
    expect(
      authorize(someone, {
        verb: 'list',
        group: '',
        resource: 'configmaps',
        namespace: 'kube-public',
      }).allowed,
    ).toBe(false)
    expect(
      authorize(someone, { ...get('kube-public', 'edgeplane-node-settings'), verb: 'update' })
        .allowed,
    ).toBe(false)
  })
})
