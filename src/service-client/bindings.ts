import type { StoreBindings } from '../store-client/bindings'
import type { GatewayBindings } from '../../durable-objects/node-gateway/client'

/** What the service client needs: the stores (Services, Endpoints, pods) and the node gateways it dials through. */
export interface ServiceBindings extends StoreBindings, GatewayBindings {}
