// The types of docker-test-images.cjs for the TypeScript tests (which do not compile JavaScript).
export interface ImageReport {
  image: string;
  built: boolean;
  ms: number;
}
export declare function ensureTestImages(host: string): Promise<ImageReport[]>;
export declare const TEST_WEB_IMAGE: string;
export declare const TEST_SHELL_IMAGE: string;
export declare function formatReport(report: ImageReport[]): string;
