import { describe, expect, it } from 'vitest'
import { evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { memoryPrefix } from '../../durable-objects/controller-host/memory'
import { api, hostOf } from './helpers'

const job = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'upgraded' },
  spec: {
    template: {
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
    },
  },
}

const successfulCreates = async () =>
  (
    await api('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=upgraded')
  ).json.items.filter((e: { reason: string }) => e.reason === 'SuccessfulCreate')

describe("a controller host's storage written by the previous release", () => {
  it("keeps working on a Job's memory in the old shape (the uids it announced), announcing no pod twice", async () => {
    expect((await api('POST', '/apis/batch/v1/namespaces/default/jobs', job)).status).toBe(201)
    for (let i = 0; i < 3; i++) await hostOf('job').passNow('job')
    const pods = (
      await api('GET', '/api/v1/namespaces/default/pods?labelSelector=job-name=upgraded')
    ).json.items as { metadata: { uid: string } }[]
    expect(pods).toHaveLength(1)
    expect(await successfulCreates()).toHaveLength(1)

    // The previous release kept, under the Job's key, the uids of the pods it had announced.
    const key = `${memoryPrefix('job')}default/upgraded`
    await runInDurableObject(hostOf('job'), async (_i, state) => {
      await state.storage.put(key, [pods[0]!.metadata.uid])
    })
    await evictDurableObject(hostOf('job'))

    for (let i = 0; i < 3; i++) await hostOf('job').passNow('job')
    expect(await successfulCreates()).toHaveLength(1)
    const pods2 = (
      await api('GET', '/api/v1/namespaces/default/pods?labelSelector=job-name=upgraded')
    ).json.items
    expect(pods2).toHaveLength(1)
  })
})
