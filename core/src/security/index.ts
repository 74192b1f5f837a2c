export { generateDsnKey, generateToken, hashToken } from './tokens';
export { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords';
export {
  assertPublicUrl,
  checkTargetUrl,
  classifyAddress,
  describeAddressRange,
  isLocalhostName,
  PRIVATE_HINT,
  type AddressClass,
  type UrlProblem,
} from './outbound';
export {
  CLIENT_ADDRESS_HEADER,
  CLIENT_USER_AGENT_HEADER,
  CLIENT_ADDRESS_MAX_SKEW_MS,
  signClientAddress,
  verifyClientAddress,
} from './client-address';
