import { defineConfig } from 'vitest/config'
import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Tests inside workerd, against the Worker and Durable Objects of wrangler.toml. */
function workersProject(name: string, include: string[], bindings: Record<string, string>) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}/wrangler.toml` },
        miniflare: {
          bindings: {
            ADMIN_TOKEN: 'workers-test-admin-token-0123456789abcdef',
            COMPACT_RETAIN_EVENTS: '5',
            COMPACT_RETAIN_SECONDS: '0',
            ...bindings,
          },
        },
      }),
    ],
    test: { name, root, include },
  }
}

export default defineConfig({
  test: {
    root,
    projects: [
      {
        test: {
          name: 'unit',
          root,
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      // Controllers hear of no change here: the tests that need them drive their passes, and no
      // background pass outlives a test file.
      workersProject('workers', ['test/workers/**/*.test.ts'], {
        CONTROLLER_NOTIFICATIONS: 'false',
        EDGEPLANE_STRICT_LIMITS: 'true',
      }),
      {
        // Real launcher + real kubectl. Files run one at a time: each starts its own server (workerd)
        // and the machine has few cores.
        test: {
          name: 'e2e',
          root,
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/e2e/helpers/failure-output.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
