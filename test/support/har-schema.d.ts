/** har-schema ships the HAR 1.2 JSON Schemas (draft-06) without types: an object of schemas by name. */
declare module 'har-schema' {
  const schemas: Record<string, object>;
  export default schemas;
}
