import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import type { UserInfo } from '../../../../src/apimachinery/user-info'
import {
  compileExpression,
  evaluateExpression,
  policyScope,
  toCel,
  webhookScope,
} from '../../../../src/apis/admissionregistration/cel'
import { CelAuthorizer, type Authorize } from '../../../../src/apis/admissionregistration/cel-authz'
import { authorize } from '../../../../src/api/authorization/authorize'
import { RbacPolicy } from '../../../../src/api/authorization/rbac'

// Kubernetes' CEL libraries, case by case as upstream's library tests (k8s.io/apiserver/pkg/cel/library).

function run(expression: string, context: Record<string, unknown> = {}) {
  const compiled = compileExpression(expression, 'any', policyScope(false))
  if (!compiled.ok) return { compileError: compiled.error }
  const result = evaluateExpression(compiled.program, expression, {
    object: null,
    oldObject: null,
    request: null,
    namespaceObject: null,
    variables: {},
    ...context,
  })
  return result.ok ? { value: result.value } : { error: result.error }
}
const value = (expression: string, context?: Record<string, unknown>) => {
  const r = run(expression, context)
  if (!('value' in r)) throw new Error(JSON.stringify(r))
  return r.value
}
const error = (expression: string) => (run(expression) as { error?: string }).error
const compileError = (expression: string) =>
  (run(expression) as { compileError?: string }).compileError

describe('ip library', () => {
  it('parses, classifies and prints addresses as netip does', () => {
    expect(value('string(ip("192.168.0.1"))')).toBe('192.168.0.1')
    expect(value('isIP("192.168.0.1")')).toBe(true)
    expect(value('isIP("192.168.0.1.0")')).toBe(false)
    expect(value('ip.isCanonical("127.0.0.1")')).toBe(true)
    expect(value('ip("192.168.0.1").family()')).toBe(4n)
    expect(value('ip("0.0.0.0").isUnspecified() && !ip("127.0.0.1").isUnspecified()')).toBe(true)
    expect(value('ip("127.0.0.1").isLoopback() && !ip("1.2.3.4").isLoopback()')).toBe(true)
    expect(
      value('ip("224.0.0.1").isLinkLocalMulticast() && !ip("224.0.1.1").isLinkLocalMulticast()'),
    ).toBe(true)
    expect(
      value(
        'ip("169.254.169.254").isLinkLocalUnicast() && !ip("192.168.0.1").isLinkLocalUnicast()',
      ),
    ).toBe(true)
    expect(
      value('ip("192.168.0.1").isGlobalUnicast() && !ip("255.255.255.255").isGlobalUnicast()'),
    ).toBe(true)
    expect(
      value('string(ip("2001:db8::68")) == "2001:db8::68" && ip("2001:db8::68").family() == 6'),
    ).toBe(true)
    expect(value('isIP("2001:db8:::68")')).toBe(false)
    expect(value('ip.isCanonical("2001:db8::68")')).toBe(true)
    expect(value('ip.isCanonical("2001:DB8::68")')).toBe(false)
    expect(value('ip.isCanonical("2001:db8:0:0:0:0:0:68")')).toBe(false)
    expect(
      value('ip("::").isUnspecified() && ip("::1").isLoopback() && !ip("::1").isUnspecified()'),
    ).toBe(true)
    expect(
      value('ip("ff02::1").isLinkLocalMulticast() && !ip("fd00::1").isLinkLocalMulticast()'),
    ).toBe(true)
    expect(value('ip("fe80::1").isLinkLocalUnicast() && !ip("fd80::1").isLinkLocalUnicast()')).toBe(
      true,
    )
    expect(
      value('ip("2001:db8::abcd").isGlobalUnicast() && !ip("ff00::1").isGlobalUnicast()'),
    ).toBe(true)
    expect(value('ip("10.0.0.1") == ip("10.0.0.1") && ip("10.0.0.1") != ip("10.0.0.2")')).toBe(true)
  })

  it("fails with upstream's errors", () => {
    expect(error('ip("192.168.0.1.0")')).toContain(
      'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
    )
    expect(error('ip.isCanonical("127.0.0.1.0")')).toContain(
      'ParseAddr("127.0.0.1.0"): IPv4 address too long',
    )
    expect(error('ip("2001:db8:::68")')).toContain(
      'ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
    )
    expect(error('ip("010.0.0.1")')).toContain('IPv4 field has octet with leading zero')
    expect(error('ip("fe80::1%eth0")')).toContain(
      'IP address "fe80::1%eth0" with zone value is not allowed',
    )
    expect(error('ip("::ffff:1.2.3.4")')).toContain(
      'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed',
    )
    expect(compileError('isIP(cidr("192.168.0.0/24"))')).toMatch(/isIP/)
  })
})

describe('cidr library', () => {
  it('contains addresses and prefixes, masks, and prints', () => {
    expect(value('cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))')).toBe(true)
    expect(value('cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))')).toBe(false)
    expect(
      value(
        'cidr("192.168.0.0/24").containsIP("192.168.0.1") && !cidr("192.168.0.0/24").containsIP("192.168.1.1")',
      ),
    ).toBe(true)
    expect(
      value(
        'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25")) && cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))',
      ),
    ).toBe(true)
    expect(
      value(
        'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23")) || cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))',
      ),
    ).toBe(false)
    expect(
      value(
        'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25") && !cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")',
      ),
    ).toBe(true)
    expect(value('cidr("192.168.0.0/24").ip() == ip("192.168.0.0")')).toBe(true)
    expect(value('string(cidr("192.168.0.1/24").masked())')).toBe('192.168.0.0/24')
    expect(value('string(cidr("192.168.0.1/24"))')).toBe('192.168.0.1/24')
    expect(value('cidr("192.168.0.0/24").prefixLength()')).toBe(24n)
    expect(
      value(
        'cidr("2001:db8::/32").containsIP(ip("2001:db8::1")) && !cidr("2001:db8::/32").containsIP("2001:dc8::1")',
      ),
    ).toBe(true)
    expect(
      value(
        'cidr("2001:db8::/32").containsCIDR("2001:db8::/33") && !cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))',
      ),
    ).toBe(true)
    expect(value('string(cidr("2001:db8:1::/32").masked())')).toBe('2001:db8::/32')
    expect(value('cidr("10.0.0.0/8").containsIP("2001:db8::1")')).toBe(false)
    expect(value('isCIDR("10.0.0.0/8") && !isCIDR("10.0.0.0") && !isCIDR("10.0.0.0/33")')).toBe(
      true,
    )
    expect(
      value(
        'cidr("10.0.0.0/8") == cidr("10.0.0.0/8") && cidr("10.0.0.0/8") != cidr("10.0.0.0/16")',
      ),
    ).toBe(true)
  })

  it('takes its arguments from objects, as the ServiceCIDR policy does', () => {
    const object = toCel({ spec: { cidrs: ['10.96.0.0/20', '2001:db8::/80'], ip: '10.96.0.10' } })
    const allowed = "['10.96.0.0/16', '2001:db8::/64']"
    expect(
      value(`object.spec.cidrs.all(c, ${allowed}.exists(a, cidr(a).containsCIDR(c)))`, { object }),
    ).toBe(true)
    expect(
      value(
        `cidr(object.spec.cidrs[0]).containsIP(object.spec.ip) && ip(object.spec.ip).family() == 4`,
        { object },
      ),
    ).toBe(true)
    expect(value(`object.spec.cidrs.all(c, cidr('10.0.0.0/8').containsCIDR(c))`, { object })).toBe(
      false,
    )
  })

  it("fails with upstream's errors", () => {
    const twice =
      'network address parse error during conversion from string: network address parse error during conversion from string'
    expect(error('cidr("192.168.0.0/")')).toContain(
      `${twice}: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""`,
    )
    expect(error('cidr("2001:db8::/")')).toContain(
      `${twice}: netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""`,
    )
    expect(error('cidr("10.0.0.0")')).toContain(`netip.ParsePrefix("10.0.0.0"): no '/'`)
    expect(error('cidr("10.0.0.0/33")')).toContain('prefix length out of range')
    expect(error('cidr("10.0.0.0/8").containsIP("10.0.0")')).toContain('IPv4 address too short')
  })
})

describe('quantity library', () => {
  it('compares and computes as resource.Quantity', () => {
    expect(value('isQuantity("20") && isQuantity("20M") && isQuantity("20Mi")')).toBe(true)
    expect(value('isQuantity("20Mo") || isQuantity("10Mm")')).toBe(false)
    expect(
      value('quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")'),
    ).toBe(true)
    expect(
      value('quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M")'),
    ).toBe(true)
    expect(value('quantity("200M") == quantity("0.3G")')).toBe(false)
    expect(
      value(
        'quantity("50M").isLessThan(quantity("50Mi")) && !quantity("100M").isLessThan(quantity("50M"))',
      ),
    ).toBe(true)
    expect(
      value(
        'quantity("50Mi").isGreaterThan(quantity("50M")) && !quantity("50M").isGreaterThan(quantity("100M"))',
      ),
    ).toBe(true)
    expect(
      value(
        '[quantity("200M").compareTo(quantity("0.2G")), quantity("50M").compareTo(quantity("50Mi")), quantity("50Mi").compareTo(quantity("50M"))]',
      ),
    ).toEqual([0n, -1n, 1n])
    expect(value('quantity("50k").add(quantity("20")) == quantity("50.02k")')).toBe(true)
    expect(value('quantity("50k").add(20).isLessThan(quantity("50020"))')).toBe(false)
    expect(
      value(
        'quantity("50k").sub(quantity("20")) == quantity("49.98k") && quantity("50k").sub(20) == quantity("49980")',
      ),
    ).toBe(true)
    expect(value('quantity("50k").add(20).sub(quantity("100k")).asInteger()')).toBe(-49980n)
    expect(value('quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()')).toBe(20n)
    expect(
      value(
        'quantity("9999999999999999999999999999999999999G").isInteger() || !quantity("50").isInteger()',
      ),
    ).toBe(false)
    expect(value('quantity("50.703k").asApproximateFloat()')).toBe(50703)
    expect(
      value(
        '[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)',
      ),
    ).toBe(true)
    expect(
      value('sign(quantity("-1")) == -1 && sign(quantity("0")) == 0 && sign(quantity("2Ki")) == 1'),
    ).toBe(true)
  })

  it("fails with upstream's errors", () => {
    expect(error('quantity("10Mo")')).toMatch(/quantities must match the regular expression/)
    expect(error('quantity("10Mm")')).toContain("unable to parse quantity's suffix")
    expect(error('quantity("9999999999999999999999999999999999999G").asInteger()')).toContain(
      'cannot convert value to integer',
    )
    expect(compileError('isQuantity([1, 2, 3])')).toMatch(/isQuantity/)
  })
})

describe('url library', () => {
  it("reads a URL's parts as Go's net/url", () => {
    expect(value("url('https://example.com:80/').getHost()")).toBe('example.com:80')
    expect(value("url('https://example.com:80/').getHostname()")).toBe('example.com')
    expect(value("url('https://example.com:80/').getPort()")).toBe('80')
    expect(value("url('https://[::1]:80/').getHostname()")).toBe('::1')
    expect(value("url('HTTPS://example.com/').getScheme()")).toBe('https')
    expect(
      value("url('/absolute-path').getScheme() == '' && url('/absolute-path').getHost() == ''"),
    ).toBe(true)
    expect(value("url('https://example.com/path with spaces/').getEscapedPath()")).toBe(
      '/path%20with%20spaces/',
    )
    expect(value("url('https://example.com/a%2Fb').getEscapedPath()")).toBe('/a%2Fb')
    expect(value("url('https://example.com/?k=v&k=w&x=a+b').getQuery()")).toEqual({
      k: ['v', 'w'],
      x: ['a b'],
    })
    expect(value("url('https://example.com/p#frag').getEscapedPath()")).toBe('/p')
    expect(
      value(
        "isURL('https://example.com/') && isURL('/') && !isURL('../relative-path') && !isURL('')",
      ),
    ).toBe(true)
  })

  it("fails with upstream's errors", () => {
    expect(error("url('../relative-path')")).toContain(
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
    )
    expect(error("url('https://example.com:port/')")).toContain('invalid port ":port" after host')
    expect(error("url('https://example.com/%zz')")).toContain('invalid URL escape "%zz"')
  })
})

describe('format library', () => {
  it('validates named formats: none when valid, the reasons when not', () => {
    for (const ok of [
      'format.dns1123Label().validate("my-label-name")',
      'format.dns1123Subdomain().validate("apiextensions.k8s.io")',
      'format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")',
      'format.dns1123LabelPrefix().validate("my-label-prefix-")',
      'format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")',
      'format.dns1035LabelPrefix().validate("my-label-prefix-")',
      'format.uri().validate("http://example.com")',
      'format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")',
      'format.byte().validate("aGVsbG8=")',
      'format.date().validate("2021-01-01")',
      'format.datetime().validate("2021-01-01T00:00:00Z")',
      'format.labelValue().validate("my-cool-label-Value")',
    ]) {
      expect(value(`${ok}.hasValue()`), ok).toBe(false)
    }
    expect(value('format.dns1123Label().validate("contains a space").value()')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ])
    expect(value('format.dns1035Label().validate("contains a space").value()')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ])
    expect(value('format.byte().validate("aGVsbG8").value()')).toEqual(['invalid base64'])
    expect(value('format.date().validate("2020-01-32").value()')).toEqual(['invalid date'])
    expect(value('format.datetime().validate("2020-01-32T00:00:00Z").value()')).toEqual([
      'invalid datetime',
    ])
    expect(value('format.uuid().validate("nope").value()')).toEqual([
      'does not match the UUID format',
    ])
    expect(value('format.named("unknown").hasValue()')).toBe(false)
    expect(value('format.named("dns1123Label").value().validate("UPPER").hasValue()')).toBe(true)
    expect(value('format.named("dns1123Label").value() == format.dns1123Label()')).toBe(true)
  })
})

describe('sets and lists', () => {
  it('contains, equivalent and intersects with CEL equality', () => {
    expect(
      value(
        'sets.contains([], []) && sets.contains([1], []) && sets.contains([1, 2, 3, 4], [2, 3])',
      ),
    ).toBe(true)
    expect(value('sets.contains([1, 2], [2, 3])')).toBe(false)
    expect(value('sets.contains([1.0, 2u], [1, 2])')).toBe(true)
    expect(
      value(
        'sets.equivalent([], []) && sets.equivalent([1], [1, 1]) && sets.equivalent([1, 2], [2, 1, 1])',
      ),
    ).toBe(true)
    expect(value('sets.equivalent([1, 2], [1])')).toBe(false)
    expect(value('sets.intersects([1], [1, 2]) && sets.intersects([[1], [2]], [[2]])')).toBe(true)
    expect(
      value('sets.intersects([], []) || sets.intersects([1], []) || sets.intersects([1, 2], [3])'),
    ).toBe(false)
    expect(
      value('sets.contains(object.spec.allowed, ["a"])', {
        object: toCel({ spec: { allowed: ['a', 'b'] } }),
      }),
    ).toBe(true)
  })

  it('sums, orders and searches', () => {
    expect(value('[1, 2, 3].sum() == 6 && [].sum() == 0 && [1.5, 2.5].sum() == 4.0')).toBe(true)
    expect(value('[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ["b", "a"].min() == "a"')).toBe(
      true,
    )
    expect(value('[1, 2, 2, 3].isSorted() && !["b", "a"].isSorted() && [].isSorted()')).toBe(true)
    expect(
      value(
        '[1, 2, 2, 3].indexOf(2) == 1 && [1, 2, 2, 3].lastIndexOf(2) == 2 && [1].indexOf(5) == -1',
      ),
    ).toBe(true)
    expect(error('[].max()')).toContain('max called on empty list')
  })

  it('finds with RE2', () => {
    expect(value("'abc 123'.find('[0-9]+')")).toBe('123')
    expect(value("'123 abc 456'.findAll('[0-9]+')")).toEqual(['123', '456'])
    expect(value("'123 abc 456'.findAll('[0-9]+', 1)")).toEqual(['123'])
  })
})

describe('authz library', () => {
  const rbac = 'rbac.authorization.k8s.io'
  const policy = new RbacPolicy({
    clusterRoles: [
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'deployer' },
        rules: [
          {
            verbs: ['update'],
            apiGroups: ['apps'],
            resources: ['deployments', 'deployments/scale'],
          },
        ],
      } as KubeObject,
    ],
    roles: [],
    roleBindings: [
      {
        apiVersion: `${rbac}/v1`,
        kind: 'RoleBinding',
        metadata: { name: 'jane-deploys', namespace: 'team' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'deployer' },
        subjects: [{ kind: 'User', apiGroup: rbac, name: 'jane' }],
      } as KubeObject,
      {
        apiVersion: `${rbac}/v1`,
        kind: 'RoleBinding',
        metadata: { name: 'bot-deploys', namespace: 'team' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'deployer' },
        subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'team' }],
      } as KubeObject,
    ],
    clusterRoleBindings: [],
  })
  const rbacAuthorize: Authorize = (user, attributes) => authorize(user, attributes, policy)
  const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] }
  const check = (
    expression: string,
    user: UserInfo = jane,
    authorizer: Authorize = rbacAuthorize,
    scope = policyScope(false),
  ) => {
    const compiled = compileExpression(expression, 'any', scope)
    if (!compiled.ok) throw new Error(compiled.error)
    const requestResource = {
      group: 'apps',
      resource: 'deployments',
      subresource: '',
      namespace: 'team',
      name: 'web',
    }
    const result = evaluateExpression(compiled.program, expression, {
      object: null,
      oldObject: null,
      request: null,
      namespaceObject: null,
      variables: {},
      authorizer: new CelAuthorizer(user, authorizer, requestResource),
    })
    if (!result.ok) throw new Error(result.error)
    return result.value
  }

  it("asks the cluster's RBAC about the requesting user, a service account, or the request's resource", () => {
    expect(
      check(
        "authorizer.group('apps').resource('deployments').namespace('team').check('update').allowed()",
      ),
    ).toBe(true)
    expect(
      check(
        "authorizer.group('apps').resource('deployments').namespace('other').check('update').allowed()",
      ),
    ).toBe(false)
    expect(
      check(
        "authorizer.group('apps').resource('deployments').subresource('scale').namespace('team').name('web').check('update').allowed()",
      ),
    ).toBe(true)
    expect(
      check(
        "authorizer.group('apps').resource('deployments').subresource('status').namespace('team').check('update').allowed()",
      ),
    ).toBe(false)
    expect(
      check(
        "authorizer.group('apps').resource('deployments').namespace('team').check('update').reason()",
      ),
    ).toBe(
      'RBAC: allowed by RoleBinding "jane-deploys/team" of ClusterRole "deployer" to User "jane"',
    )
    expect(
      check(
        "authorizer.group('apps').resource('deployments').namespace('team').check('update').errored()",
      ),
    ).toBe(false)
    expect(
      check(
        "authorizer.serviceAccount('team', 'bot').group('apps').resource('deployments').namespace('team').check('update').allowed()",
        { username: 'nobody', groups: [] },
      ),
    ).toBe(true)
    expect(
      check(
        "authorizer.serviceAccount('other', 'bot').group('apps').resource('deployments').namespace('team').check('update').allowed()",
      ),
    ).toBe(false)
    expect(
      check(
        "authorizer.requestResource.check('update').allowed() && !authorizer.requestResource.check('delete').allowed()",
      ),
    ).toBe(true)
    expect(
      check("authorizer.path('/healthz').check('get').allowed()", {
        username: 'admin',
        groups: ['system:masters'],
      }),
    ).toBe(true)
    expect(
      check(
        "authorizer.group('apps').resource('deployments').labelSelector('app=web').fieldSelector('metadata.name=web').namespace('team').check('update').allowed()",
      ),
    ).toBe(true)
  })

  it("asks as the service account in its two service-account groups, without the requester's system:authenticated", () => {
    const asked: UserInfo[] = []
    const recording: Authorize = (user) => (asked.push(user), { allowed: false, reason: '' })
    check(
      "authorizer.serviceAccount('team', 'bot').group('').resource('pods').check('get').allowed()",
      jane,
      recording,
    )
    expect(asked).toEqual([
      {
        username: 'system:serviceaccount:team:bot',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team'],
      },
    ])
  })

  it('reports an authorizer that fails as an errored decision, and refuses empty names', () => {
    const failing: Authorize = () => {
      throw new Error('authorizer unavailable')
    }
    expect(check("authorizer.requestResource.check('get').errored()", jane, failing)).toBe(true)
    expect(check("authorizer.requestResource.check('get').error()", jane, failing)).toBe(
      'authorizer unavailable',
    )
    expect(check("authorizer.requestResource.check('get').allowed()", jane, failing)).toBe(false)
    expect(() => check("authorizer.path(' ').check('get').allowed()")).toThrow(
      /path must not be empty/,
    )
    expect(() => check("authorizer.group('apps').resource('').check('get').allowed()")).toThrow(
      /resource must not be empty/,
    )
    expect(() =>
      check(
        "authorizer.serviceAccount('team', 'Bad Name').group('').resource('pods').check('get').allowed()",
      ),
    ).toThrow(/Invalid service account name/)
    expect(() =>
      check(
        "authorizer.serviceAccount('Bad_NS', 'bot').group('').resource('pods').check('get').allowed()",
      ),
    ).toThrow(/Invalid service account namespace/)
  })

  it('costs 350,000 a check, so a third check in one expression overspends', () => {
    const three =
      "authorizer.requestResource.check('a').allowed() || authorizer.requestResource.check('b').allowed() || authorizer.requestResource.check('c').allowed()"
    expect(() => check(three)).toThrow(/actual cost limit exceeded/)
    expect(
      check(
        "authorizer.requestResource.check('a').allowed() || authorizer.requestResource.check('b').allowed()",
      ),
    ).toBe(false)
  })

  it('is declared for webhook match conditions, which have no params or variables', () => {
    expect(
      compileExpression("authorizer.requestResource.check('get').allowed()", 'bool', webhookScope)
        .ok,
    ).toBe(true)
    expect(compileExpression('variables.x', 'bool', webhookScope).ok).toBe(false)
    expect(compileExpression('params.x', 'bool', webhookScope).ok).toBe(false)
  })
})
