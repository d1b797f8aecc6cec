//! A small deterministic generator (xorshift64*) shared by the differential
//! test and the rules bench, so failures and bench inputs reproduce without a
//! dependency. Included with `#[path]` by both.

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform enough below `n` for test inputs.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
