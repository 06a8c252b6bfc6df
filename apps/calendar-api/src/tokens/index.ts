// The tokens feature's public face: what other features may use of it.
export { parseExpiry, scopeAllows, tokenState, type RouteAccess } from './token-rules';
export { createTokensService, type IssuedToken, type TokensService } from './tokens.service';
export { printIssued, runTokenCommand, TOKEN_USAGE, type TokenOptions } from './tokens.cli';
