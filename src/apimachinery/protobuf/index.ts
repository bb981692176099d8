export { decodeProtobufBody, ProtobufError, UnsupportedProtobufKind } from './envelope'
