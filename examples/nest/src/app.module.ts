import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common'
import { CatsController } from './cats.controller'
import { CatsService } from './cats.service'
import { GreetingsV1Controller, GreetingsV2Controller } from './greetings.controller'
import { StampMiddleware } from './stamp.middleware'

@Module({
  controllers: [CatsController, GreetingsV1Controller, GreetingsV2Controller],
  providers: [CatsService]
})
export class AppModule implements NestModule {
  configure (consumer: MiddlewareConsumer): void {
    consumer
      .apply(StampMiddleware)
      .exclude({ path: 'cats/health', method: RequestMethod.GET }, 'cats/file')
      .forRoutes(CatsController)
  }
}
