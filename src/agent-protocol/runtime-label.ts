/** The label a node agent puts on its Node: the runtime that runs its pods (process, docker, sim). */
export const RUNTIME_LABEL = 'edgeplane.io/runtime'
