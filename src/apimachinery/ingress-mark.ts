/**
 * The header the local edge's ingress listener (src/launcher/ingress.ts) marks each request it
 * passes to the Worker with; its value is the secret the two share (EDGEPLANE_INGRESS_SECRET).
 * The Worker serves a request so marked as ingress traffic, and the https front lets it keep the
 * client's address the listener gave it.
 */
export const ingressMarkHeader = 'x-edgeplane-ingress'
