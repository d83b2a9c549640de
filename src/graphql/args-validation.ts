// The zod plugin, validating a field's arguments synchronously. @pothos/plugin-zod (4.3.2) parses
// every field's arguments with parseAsync, and zod 4 runs its compiled object parser only in a
// synchronous parse: a list's StoreFilter took 17 µs a request that way. Here arguments are parsed
// with parse, and with parseAsync only when a schema holds an async refinement (zod then throws
// $ZodAsyncError); errors go through the builder's validationError as the plugin's own do. A field
// with a validate option of its own (over all its arguments) keeps the plugin's path.
import SchemaBuilder, {
  type PothosOutputFieldConfig,
  PothosValidationError,
  type SchemaTypes,
} from '@pothos/core';
import ZodPluginName, { PothosZodPlugin } from '@pothos/plugin-zod';
import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import * as zod from 'zod';

type ArgsValidator = (
  rawArgs: object,
  context: unknown,
  info: GraphQLResolveInfo,
) => object | Promise<object>;

const isPromise = (value: unknown): value is Promise<object> =>
  typeof (value as Promise<object> | null)?.then === 'function';

/** `next` with the validated arguments: in the same turn, or once an async refinement settles */
function withValidArgs<Context>(
  validate: ArgsValidator,
  next: GraphQLFieldResolver<unknown, Context, object>,
): GraphQLFieldResolver<unknown, Context, object> {
  return (parent, rawArgs, context, info) => {
    const args = validate(rawArgs, context, info);
    return isPromise(args)
      ? args.then((valid) => next(parent, valid, context, info))
      : next(parent, args, context, info);
  };
}

class SyncArgsZodPlugin<Types extends SchemaTypes> extends PothosZodPlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const validate = this.syncArgsValidator(fieldConfig);
    return validate ? withValidArgs(validate, resolver) : super.wrapResolve(resolver, fieldConfig);
  }

  override wrapSubscribe(
    subscribe: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    const validate = subscribe && this.syncArgsValidator(fieldConfig);
    return validate
      ? withValidArgs(validate, subscribe)
      : super.wrapSubscribe(subscribe, fieldConfig);
  }

  /** undefined where the plugin's own path applies: no argument validates, or the field validates its arguments together */
  private syncArgsValidator(
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): ArgsValidator | undefined {
    if (fieldConfig.pothosOptions.validate) return undefined;
    const shape: Record<string, zod.ZodType> = {};
    for (const [name, arg] of Object.entries(fieldConfig.args)) {
      const validator = arg.extensions?.validator as zod.ZodType | undefined;
      if (validator) shape[name] = validator;
    }
    if (Object.keys(shape).length === 0) return undefined;
    const schema = zod.looseObject(shape);
    const validationError = this.builder.options.zod?.validationError;
    const failed = (
      error: unknown,
      rawArgs: object,
      context: unknown,
      info: GraphQLResolveInfo,
    ) => {
      if (!validationError) throw error;
      const errorOrMessage = validationError(
        error as zod.ZodError,
        rawArgs as Record<string, unknown>,
        context as never,
        info,
      );
      throw typeof errorOrMessage === 'string'
        ? new PothosValidationError(errorOrMessage)
        : errorOrMessage;
    };
    return (rawArgs, context, info) => {
      try {
        return schema.parse(rawArgs);
      } catch (error) {
        if (error instanceof zod.core.$ZodAsyncError)
          return schema
            .parseAsync(rawArgs)
            .catch((asyncError: unknown) => failed(asyncError, rawArgs, context, info));
        return failed(error, rawArgs, context, info);
      }
    };
  }
}

// the builder makes its plugins by name: this class takes the zod plugin's place before any builder exists
SchemaBuilder.allowPluginReRegistration = true;
SchemaBuilder.registerPlugin(ZodPluginName, SyncArgsZodPlugin);
SchemaBuilder.allowPluginReRegistration = false;

export default ZodPluginName;
