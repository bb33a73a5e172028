/* Reference dice-table board: Arduino Uno (ATmega328P, 16 MHz), USB serial at 115200 baud.
 *
 * Pins (Arduino names):
 *   D2  button to GND (internal pull-up)        -> BUTTON event, fires the popper
 *   D3  motion sensor output, high while moving  -> MOTION_STARTED / MOTION_STOPPED (300 ms quiet)
 *   D4  popper solenoid driver (MOSFET gate)     <- TRIGGER_ROLL or the button: 80 ms pulse, then ROLL_DONE
 *   D5  table light, PWM (MOSFET gate)           <- SET_LIGHT
 *   D9  outcome LED red, D10 green, D11 blue     <- SHOW_OUTCOME
 *   D13 on-board LED: on once a host has said HELLO
 *   A0  battery through a 100k/100k divider      -> HEALTH, STATUS
 * Built with -DTEST_HOOK, the INJECT command lets a test raise any event over the link.
 * Built with -DNO_SLEEP, the main loop spins instead of sleeping (for qemu-system-avr).
 */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

#include "bridge.h"
#include "protocol.h"

#define BAUD 115200UL
#define TICK_MS 4
#define DEBOUNCE_MS 20
#define MOTION_QUIET_MS 300
#define POPPER_MS 80
#define HEALTH_EVERY_MS 60000UL
#define BATTERY_LOW_MV 3500
#define BATTERY_FULL_MV 4200

#define BUTTON_BIT PD2
#define MOTION_BIT PD3
#define POPPER_BIT PD4
#define LIGHT_BIT PD5
#define RED_BIT PB1
#define GREEN_BIT PB2
#define BLUE_BIT PB3
#define STATUS_BIT PB5

static volatile uint32_t millis;
static volatile uint8_t rx_ring[128];
static volatile uint8_t rx_head, rx_tail;

static uint16_t boot_id;
static uint16_t battery_mv;
static uint8_t outcome, health_due;
static uint32_t popper_until; /* 0: idle */

ISR(TIMER1_COMPA_vect)
{
    millis += TICK_MS;
}

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (rx_head + 1) & 127;
    if (next != rx_tail) {
        rx_ring[rx_head] = byte;
        rx_head = next;
    }
}

uint32_t hw_millis(void)
{
    uint32_t now;
    uint8_t sreg = SREG;
    cli();
    now = millis;
    SREG = sreg;
    return now;
}

void hw_write(const uint8_t *data, uint8_t n)
{
    while (n--) {
        while (!(UCSR0A & _BV(UDRE0)))
            ;
        UDR0 = *data++;
    }
}

uint16_t hw_capabilities(void)
{
    uint16_t caps = CAP_BUTTON | CAP_MOTION | CAP_POPPER | CAP_LIGHT | CAP_OUTCOME | CAP_BATTERY;
#ifdef TEST_HOOK
    caps |= CAP_TEST_HOOK | CAP_FACES; /* this board reads no faces: they come through the hook */
#endif
    return caps;
}

const char *hw_board_id(void)
{
    return "uno-ref";
}

uint16_t hw_boot_id(void)
{
    return boot_id;
}

void hw_battery(uint16_t *mv, uint8_t *pct, uint8_t *flags)
{
    if (battery_mv < 1000) { /* nothing on A0: powered by USB */
        *mv = 0;
        *pct = 255;
        *flags = 4;
        return;
    }
    *mv = battery_mv;
    *pct = battery_mv >= BATTERY_FULL_MV ? 100
         : battery_mv <= 3300           ? 0
                                        : (uint8_t)((uint32_t)(battery_mv - 3300) * 100 / (BATTERY_FULL_MV - 3300));
    *flags = battery_mv < BATTERY_LOW_MV ? 2 : 0;
}

void hw_set_light(uint8_t level)
{
    OCR0B = level;
}

void hw_show_outcome(uint8_t shown)
{
    outcome = shown;
}

uint8_t hw_fire_popper(void)
{
    if (popper_until)
        return 0;
    PORTD |= _BV(POPPER_BIT);
    popper_until = hw_millis() + POPPER_MS;
    if (!popper_until)
        popper_until = 1;
    return 1;
}

void hw_host_greeted(void)
{
    PORTB |= _BV(STATUS_BIT);
    health_due = 1;
}

static void setup(void)
{
    uint8_t reset_cause = MCUSR;
    MCUSR = 0;

    /* USART0: 115200 8N1, double speed (2.1 % error at 16 MHz), RX interrupt */
    UBRR0 = (F_CPU / 8 / BAUD) - 1;
    UCSR0A |= _BV(U2X0); /* |=: QEMU lets a plain write clear the read-only UDRE flag */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);

    /* Timer1: CTC, clk/256, a tick every 4 ms */
    OCR1A = (F_CPU / 256 / (1000 / TICK_MS)) - 1;
    TCCR1B = _BV(WGM12) | _BV(CS12);
    TIMSK1 = _BV(OCIE1A);

    /* Timer0: fast PWM on OC0B (D5) for the light */
    TCCR0A = _BV(COM0B1) | _BV(WGM01) | _BV(WGM00);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0B = 0;

    DDRD = _BV(POPPER_BIT) | _BV(LIGHT_BIT);
    PORTD = _BV(BUTTON_BIT); /* pull-up on the button */
    DDRB = _BV(RED_BIT) | _BV(GREEN_BIT) | _BV(BLUE_BIT) | _BV(STATUS_BIT);

    /* ADC: AVcc reference, channel 0, clk/128 */
    ADMUX = _BV(REFS0);
    ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0) | _BV(ADSC);

    /* a different boot id on every boot: a counter kept in EEPROM */
    boot_id = eeprom_read_word((uint16_t *)0) + 1;
    eeprom_write_word((uint16_t *)0, boot_id);

    if (reset_cause & _BV(BORF)) {
        uint8_t err[2] = {ERR_BROWN_OUT, reset_cause};
        bridge_event(MSG_ERROR, err, 2);
    }
}

static void read_battery(void)
{
    if (ADCSRA & _BV(ADSC))
        return; /* conversion still running (or no ADC at all, as under QEMU) */
    battery_mv = (uint16_t)((uint32_t)ADC * 10000UL / 1024);
    ADCSRA |= _BV(ADSC);
}

static void outputs(uint32_t now)
{
    uint8_t blink = (now / 125) & 1, leds = 0;
    switch (outcome) {
    case SHOW_SUCCESS: leds = _BV(GREEN_BIT); break;
    case SHOW_FAILURE: leds = _BV(RED_BIT); break;
    case SHOW_CRITICAL_SUCCESS: leds = blink ? _BV(GREEN_BIT) | _BV(BLUE_BIT) : 0; break;
    case SHOW_CRITICAL_FAILURE: leds = blink ? _BV(RED_BIT) : 0; break;
    default: break;
    }
    PORTB = (PORTB & ~(_BV(RED_BIT) | _BV(GREEN_BIT) | _BV(BLUE_BIT))) | leds;
    if (popper_until && (int32_t)(now - popper_until) >= 0) {
        PORTD &= ~_BV(POPPER_BIT);
        popper_until = 0;
        bridge_roll_done();
    }
}

static void inputs(uint32_t now)
{
    static uint8_t button_was, button_stable;
    static uint32_t button_changed, motion_seen;
    static uint8_t moving, started;
    uint8_t pressed = !(PIND & _BV(BUTTON_BIT));
    uint8_t shaking = (PIND & _BV(MOTION_BIT)) != 0;
    uint8_t stamp[4];

    if (!started) { /* take the idle levels as found: no event for a pin that starts low */
        button_was = button_stable = pressed;
        started = 1;
    }
    if (pressed != button_was) {
        button_was = pressed;
        button_changed = now;
    } else if (pressed != button_stable && now - button_changed >= DEBOUNCE_MS) {
        button_stable = pressed;
        if (pressed) {
            uint8_t id = 0;
            bridge_event(MSG_BUTTON, &id, 1);
            hw_fire_popper();
        }
    }
    stamp[0] = now >> 24;
    stamp[1] = now >> 16;
    stamp[2] = now >> 8;
    stamp[3] = now;
    if (shaking) {
        motion_seen = now;
        if (!moving) {
            moving = 1;
            bridge_event(MSG_MOTION_STARTED, stamp, 4);
        }
    } else if (moving && now - motion_seen >= MOTION_QUIET_MS) {
        moving = 0;
        bridge_event(MSG_MOTION_STOPPED, stamp, 4);
    }
}

static void send_health(void)
{
    uint16_t mv;
    uint8_t p[4];
    hw_battery(&mv, &p[2], &p[3]);
    p[0] = mv >> 8;
    p[1] = mv & 0xFF;
    bridge_event(MSG_HEALTH, p, 4);
}

int main(void)
{
    static uint32_t last_tick, last_health;
    setup();
    sei();
    for (;;) {
        while (rx_tail != rx_head) {
            bridge_receive(rx_ring[rx_tail]);
            rx_tail = (rx_tail + 1) & 127;
        }
        uint32_t now = hw_millis();
        if (now != last_tick) { /* once per timer tick */
            last_tick = now;
            inputs(now);
            outputs(now);
            read_battery();
            if (health_due || now - last_health >= HEALTH_EVERY_MS) {
                health_due = 0;
                last_health = now;
                send_health();
            }
            bridge_poll();
        }
#ifndef NO_SLEEP /* qemu-system-avr 7.2 never wakes from SLEEP: build for it with NO_SLEEP */
        cli();
        if (rx_tail == rx_head) { /* sleep until the next byte or tick */
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
#endif
    }
}
