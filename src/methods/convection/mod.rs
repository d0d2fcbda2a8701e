//! Linear convection (Chowdhury 2019, seed 003): ∂u/∂t + c_x ∂u/∂x + c_y ∂u/∂y = 0 with
//! first-order upwind differences in every direction (FTBS for c > 0) and a fixed Δt, in 1D
//! and 2D, with inflow, outflow and periodic sides (`"method": "convection"`).
//! docs/method/convection.md has the equations the code cites; the solver is the shared
//! explicit one (`methods::explicit`).

pub mod case;
pub mod ftbs;
