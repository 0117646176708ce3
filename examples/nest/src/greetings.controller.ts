import { Controller, Get, VERSION_NEUTRAL, Version } from '@nestjs/common'

// The same path in two versions, and one route for any version: reached by
// URI (/v1/greetings) or by header (X-API-Version: 1), as the app is set up.
@Controller({ path: 'greetings', version: '1' })
export class GreetingsV1Controller {
  @Get()
  hello (): { version: string, greeting: string } {
    return { version: '1', greeting: 'hello' }
  }
}

@Controller({ path: 'greetings', version: '2' })
export class GreetingsV2Controller {
  @Get()
  hello (): { version: string, greeting: string } {
    return { version: '2', greeting: 'bonjour' }
  }

  @Get('any')
  @Version(VERSION_NEUTRAL)
  any (): { version: string } {
    return { version: 'neutral' }
  }
}
