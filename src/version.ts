/** @module The release version shown by `/healthz` and the OpenAPI document: package.json's, bundled at build time. */
import { version } from "../package.json";

export const VERSION: string = version;
