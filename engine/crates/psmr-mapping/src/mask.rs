//! Class sets as bit masks (class `c` is bit `c`; at most 64 classes, the
//! optimizer's limit).

/// The set bits of `mask`, lowest first: the classes of the set.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

#[cfg(test)]
mod tests {
    use super::bits;

    #[test]
    fn bits_lists_the_set_bits_lowest_first() {
        assert_eq!(bits(0).count(), 0);
        assert_eq!(bits(0b1010_0101).collect::<Vec<_>>(), [0, 2, 5, 7]);
        assert_eq!(bits(1 << 63).collect::<Vec<_>>(), [63]);
    }
}
