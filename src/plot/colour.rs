//! Colour maps: matplotlib's, sampled at 17 points and interpolated linearly in RGB.

/// A colour map: 17 RGB stops at 0, 1/16, …, 1.
#[derive(Debug, Clone, Copy)]
pub struct ColourMap {
    /// matplotlib's name of the map.
    pub name: &'static str,
    stops: &'static [(u8, u8, u8); 17],
    /// Diverging (centred on zero) rather than sequential.
    pub diverging: bool,
}

impl ColourMap {
    /// The colour at `t` in [0, 1] (clamped); NaN gives white.
    pub fn at(&self, t: f64) -> (u8, u8, u8) {
        if t.is_nan() {
            return (255, 255, 255);
        }
        let s = t.clamp(0.0, 1.0) * 16.0;
        let k = (s.floor() as usize).min(15);
        let f = s - k as f64;
        let (a, b) = (self.stops[k], self.stops[k + 1]);
        let mix = |x: u8, y: u8| (f64::from(x) + f * (f64::from(y) - f64::from(x))).round() as u8;
        (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// The map for a field: sequential for p, T, rho and Mach (and for any field of one
    /// sign), diverging for signed quantities such as u and v.
    pub fn for_field(name: &str, min: f64, max: f64) -> ColourMap {
        match name {
            "p" => PLASMA,
            "T" => INFERNO,
            "rho" => CIVIDIS,
            "mach" => VIRIDIS,
            "u" | "v" => RDBU_R,
            _ if min < 0.0 && max > 0.0 => RDBU_R,
            _ => VIRIDIS,
        }
    }
}

/// Perceptually uniform, blue to yellow (Mach number).
pub const VIRIDIS: ColourMap = ColourMap {
    name: "viridis",
    diverging: false,
    stops: &[
        (68, 1, 84),
        (72, 24, 106),
        (71, 45, 123),
        (66, 64, 134),
        (59, 82, 139),
        (51, 99, 141),
        (44, 114, 142),
        (38, 130, 142),
        (33, 145, 140),
        (31, 160, 136),
        (40, 174, 128),
        (63, 188, 115),
        (94, 201, 98),
        (132, 212, 75),
        (173, 220, 48),
        (216, 226, 25),
        (253, 231, 37),
    ],
};

/// Perceptually uniform, blue to yellow through magenta (pressure).
pub const PLASMA: ColourMap = ColourMap {
    name: "plasma",
    diverging: false,
    stops: &[
        (13, 8, 135),
        (49, 5, 151),
        (76, 2, 161),
        (102, 0, 167),
        (126, 3, 168),
        (149, 17, 161),
        (170, 35, 149),
        (188, 53, 135),
        (204, 71, 120),
        (218, 90, 106),
        (230, 108, 92),
        (240, 128, 78),
        (248, 149, 64),
        (253, 172, 51),
        (253, 197, 39),
        (248, 223, 37),
        (240, 249, 33),
    ],
};

/// Black body, black to pale yellow (temperature).
pub const INFERNO: ColourMap = ColourMap {
    name: "inferno",
    diverging: false,
    stops: &[
        (0, 0, 4),
        (11, 7, 36),
        (33, 12, 74),
        (61, 9, 101),
        (87, 16, 110),
        (113, 25, 110),
        (138, 34, 106),
        (163, 44, 97),
        (188, 55, 84),
        (210, 70, 68),
        (228, 90, 49),
        (241, 115, 29),
        (249, 142, 9),
        (252, 172, 17),
        (249, 203, 53),
        (242, 234, 105),
        (252, 255, 164),
    ],
};

/// Colour-blind friendly, blue to yellow (density).
pub const CIVIDIS: ColourMap = ColourMap {
    name: "cividis",
    diverging: false,
    stops: &[
        (0, 34, 78),
        (0, 46, 106),
        (26, 56, 111),
        (50, 67, 109),
        (67, 78, 108),
        (83, 90, 109),
        (97, 101, 111),
        (111, 112, 115),
        (125, 124, 120),
        (140, 136, 120),
        (155, 148, 118),
        (171, 160, 114),
        (188, 174, 108),
        (205, 187, 99),
        (222, 201, 88),
        (240, 216, 70),
        (254, 232, 56),
    ],
};

/// Diverging blue (negative) – white (zero) – red (positive) (velocities).
pub const RDBU_R: ColourMap = ColourMap {
    name: "RdBu_r",
    diverging: true,
    stops: &[
        (5, 48, 97),
        (23, 82, 144),
        (42, 113, 178),
        (63, 142, 192),
        (107, 172, 209),
        (155, 201, 224),
        (194, 221, 236),
        (224, 236, 243),
        (247, 246, 246),
        (251, 229, 216),
        (251, 204, 180),
        (245, 170, 137),
        (228, 128, 102),
        (208, 85, 72),
        (186, 40, 50),
        (147, 14, 38),
        (103, 0, 31),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_midpoints() {
        assert_eq!(VIRIDIS.at(0.0), (68, 1, 84));
        assert_eq!(VIRIDIS.at(1.0), (253, 231, 37));
        assert_eq!(VIRIDIS.at(2.0), (253, 231, 37));
        assert_eq!(RDBU_R.at(0.5), (247, 246, 246));
        assert_eq!(VIRIDIS.at(f64::NAN), (255, 255, 255));
        assert_eq!(ColourMap::for_field("u", 0.0, 1.0).name, "RdBu_r");
        assert_eq!(ColourMap::for_field("q", -1.0, 1.0).name, "RdBu_r");
        assert_eq!(ColourMap::for_field("q", 0.5, 1.0).name, "viridis");
    }
}
