/** Where a get_login link points: the web page's confirmation step for that token. */
export const LOGIN_LINK_PREFIX = '/sign-in/link/';
export const loginLinkPath = (token: string) => `${LOGIN_LINK_PREFIX}${encodeURIComponent(token)}`;
