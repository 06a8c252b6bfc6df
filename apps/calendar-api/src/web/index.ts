// The web feature's public face: what other features may use of it.
export { calendarPageRoutes } from './calendar-page.routes';
