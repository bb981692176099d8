import type { Env } from './env'
import { buildApp } from './api/app'

export { KindStore } from '../durable-objects/kind-store/kind-store'

const app = buildApp()

export default {
  fetch: app.fetch,
  async scheduled(): Promise<void> {},
} satisfies ExportedHandler<Env>
