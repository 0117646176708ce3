// The run-time side of hotpath/typebox, hotpath/sinclair-typebox and
// hotpath/json-schema-to-ts: nothing. Those entry points exist for their
// declarations (types/providers/), which add a type provider to the
// program; importing one at run time costs this empty module.
export {}
