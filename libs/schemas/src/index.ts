export * from './ids';
export * from './problem';
export * from './dates';
export * from './env';
export * from './config-reference';
