export * from './src/browser';
