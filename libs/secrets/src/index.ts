export { hashSecret, randomSecret, secretMatches } from './secrets';
