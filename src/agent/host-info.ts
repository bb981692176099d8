/** Facts about the machine (or a simulated one) that go into the Node object. */
import { createHash } from 'node:crypto'
import { readFileSync, statfsSync } from 'node:fs'
import { arch, cpus, hostname, networkInterfaces, platform, release, totalmem } from 'node:os'
import type { NodeIdentity } from './node-status'

const AGENT_VERSION = '0.1.0'

/** The host name as a node name: lower case, as kubelet registers it. */
export function defaultNodeName(host: string = hostname()): string {
  const name = host
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
  return name || 'localhost'
}

function readTrimmed(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim()
    return text || undefined
  } catch {
    return undefined
  }
}

/** Kubernetes' architecture names (GOARCH) from Node's. */
export function goArch(nodeArch: string = arch()): string {
  const map: Record<string, string> = {
    x64: 'amd64',
    ia32: '386',
    arm: 'arm',
    arm64: 'arm64',
    ppc64: 'ppc64le',
    s390x: 's390x',
    riscv64: 'riscv64',
  }
  return map[nodeArch] ?? nodeArch
}

/** The first non-loopback IPv4 address, else loopback: what pods and the API see as this node. */
export function primaryIPv4(): string {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address
  }
  return '127.0.0.1'
}

function osImage(): string {
  const text = readTrimmed('/etc/os-release') ?? ''
  const m = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text)
  return m?.[1] ?? `${platform()} ${release()}`
}

function hashId(seed: string): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, 32)
}

/** This machine's capacity: every CPU, all memory (in Ki), 110 pods, and the root filesystem's size. */
export function machineCapacity(): Record<string, string> {
  const cap: Record<string, string> = {
    cpu: String(cpus().length || 1),
    memory: `${Math.floor(totalmem() / 1024)}Ki`,
    pods: '110',
  }
  try {
    const fs = statfsSync('/')
    cap['ephemeral-storage'] = `${Math.floor((fs.blocks * fs.bsize) / 1024)}Ki`
  } catch {
    // not every platform reports it
  }
  return cap
}

/** The identity of a node whose pods run as processes on this machine. */
export function processNodeIdentity(
  name: string,
  labels: Record<string, string>,
  capacity: Record<string, string>,
): NodeIdentity {
  const machineID = readTrimmed('/etc/machine-id') ?? hashId(`machine:${name}`)
  return {
    name,
    labels,
    capacity,
    internalIP: primaryIPv4(),
    hostname: name,
    instanceType: 'edgeplane-process',
    info: {
      machineID,
      systemUUID: readTrimmed('/sys/class/dmi/id/product_uuid') ?? machineID,
      bootID:
        readTrimmed('/proc/sys/kernel/random/boot_id') ??
        hashId(`boot:${process.pid}:${Date.now()}`),
      kernelVersion: release(),
      osImage: osImage(),
      containerRuntimeVersion: `process://${AGENT_VERSION}`,
      operatingSystem: platform(),
      architecture: goArch(),
    },
  }
}

export const SIM_CAPACITY: Record<string, string> = { cpu: '4', memory: '16Gi', pods: '110' }

/**
 * A simulated node's address: 10.x.y.z derived from its name (outside 10.244/16, the pods'
 * range), so agents in separate processes rarely pick the same one.
 */
export function simNodeIP(name: string): string {
  const h = createHash('sha256').update(name).digest()
  let second = h[0]! % 255
  if (second === 244) second = 245
  return `10.${second}.${h[1]! % 256}.${(h[2]! % 254) + 1}`
}

/** The identity of a simulated node: fixed capacity by default and made-up machine facts. */
export function simNodeIdentity(
  name: string,
  labels: Record<string, string>,
  capacity: Record<string, string>,
): NodeIdentity {
  const id = hashId(`sim:${name}`)
  return {
    name,
    labels,
    capacity,
    internalIP: simNodeIP(name),
    hostname: name,
    instanceType: 'edgeplane-sim',
    info: {
      machineID: id,
      systemUUID: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`,
      bootID: hashId(`boot:${name}:${process.pid}`),
      kernelVersion: 'simulated',
      osImage: 'edgeplane simulated node',
      containerRuntimeVersion: `sim://${AGENT_VERSION}`,
      operatingSystem: 'linux',
      architecture: goArch(),
    },
  }
}
