export function printBanner(info: {
  url: string
  stateDir: string
  kubeconfig: string
  caCertPath: string
  joinToken: string
  startupMs: number
  agentPid?: number
  agentRuntime?: string
  ingressUrl?: string
}): void {
  const lines = [
    '',
    `edgeplane is listening on ${info.url} (ready ${info.startupMs} ms after process start)`,
    `  state:      ${info.stateDir}`,
    `  kubeconfig: ${info.kubeconfig}`,
    info.agentPid === undefined
      ? undefined
      : `  node agent: pid ${info.agentPid}, ${info.agentRuntime === 'docker' ? 'docker runtime (images in the local container engine)' : 'process runtime (commands as local processes; images are not run)'}`,
    info.ingressUrl === undefined
      ? undefined
      : `  ingress:    ${info.ingressUrl} (Ingress rules and LoadBalancer hostnames, by Host header)`,
    '',
    'Use it with:',
    `  export KUBECONFIG=${info.kubeconfig}`,
    '  kubectl get ns',
    'or:',
    `  kubectl --kubeconfig ${info.kubeconfig} get ns`,
    '',
    'Join a node (the join token is valid for 24 hours):',
    `  npm run agent -- --server ${info.url} --ca-cert ${info.caCertPath} --token ${info.joinToken} --name NODE --state-dir DIR`,
    '',
    'Press Ctrl-C to stop.',
    '',
  ]
  console.log(lines.filter((l) => l !== undefined).join('\n'))
}
